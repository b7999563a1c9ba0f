import { describe, expect, it } from "vitest";
import { isInferenceFailure } from "../inference-failure";
import { InflightShareGate, type InflightTicket } from "./inflight-share-gate";

const FAR = 600_000;

/** Job ids are `<run>:<priority>`; run `none` is a job no resolver knows. The clock stands at 0. */
function gateWith(capacity: number) {
  const room = { capacity };
  const gate = new InflightShareGate(
    { initialCostMs: 10 },
    () => room.capacity,
    () => 0,
  );
  gate.resolveFlowsWith((jobId) => {
    const [run, priority] = jobId.split(":");
    if (run === "none") return null;
    return { flowId: run as string, weight: run === "big" ? 3 : 1, priority: Number(priority ?? 0) };
  });
  return { gate, room };
}

/** A promise with its outcome visible. */
function tracked<T>(promise: Promise<T>) {
  const state: { value?: T; error?: unknown } = {};
  promise.then(
    (value) => {
      state.value = value;
    },
    (error: unknown) => {
      state.error = error;
    },
  );
  return state;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("InflightShareGate", () => {
  it("grants at once while there is room, then holds requests until capacity frees", async () => {
    const { gate } = gateWith(2);
    const first = await gate.enter("a:0", undefined, FAR);
    await gate.enter("a:0", undefined, FAR);
    const third = tracked(gate.enter("b:0", undefined, FAR));
    await settle();
    expect(third.value).toBeUndefined();
    expect(gate.snapshot()).toMatchObject({ capacity: 2, inFlight: 2 });
    gate.leave(first);
    await settle();
    expect(third.value?.grant.flowId).toBe("b");
    expect(gate.snapshot().inFlight).toBe(2);
  });

  it("grants freed capacity to the higher-priority run first, then by share", async () => {
    const { gate } = gateWith(1);
    let current = await gate.enter("small:0", undefined, FAR);
    const granted: InflightTicket[] = [];
    for (const jobId of ["small:0", "big:0", "big:0", "urgent:5"]) {
      void gate.enter(jobId, undefined, FAR).then((ticket) => granted.push(ticket));
    }
    await settle();
    expect(granted).toHaveLength(0);
    for (let i = 0; i < 4; i += 1) {
      gate.leave(current);
      await settle();
      expect(granted).toHaveLength(i + 1);
      current = granted[i] as InflightTicket;
    }
    expect(granted.map((ticket) => ticket.grant.flowId)).toEqual(["urgent", "big", "big", "small"]);
  });

  it("withdraws a waiting request when its signal aborts: it is never granted", async () => {
    const { gate } = gateWith(1);
    const held = await gate.enter("a:0", undefined, FAR);
    const controller = new AbortController();
    const waiting = gate.enter("a:0", controller.signal, FAR);
    controller.abort();
    const failure = await waiting.catch((error: unknown) => error);
    expect(isInferenceFailure(failure) && failure.failure.inference.reason).toBe("aborted");
    expect(gate.snapshot().flows.find((f) => f.flowId === "a")?.waiting).toBe(0);
    gate.leave(held);
    expect(gate.snapshot().inFlight).toBe(0);
  });

  it("fails a request still waiting at its deadline as `deadline`", async () => {
    const { gate } = gateWith(1);
    await gate.enter("a:0", undefined, FAR);
    const failure = await gate.enter("a:0", undefined, 20).catch((error: unknown) => error);
    expect(isInferenceFailure(failure) && failure.failure.inference.reason).toBe("deadline");
    expect(gate.snapshot().flows.find((f) => f.flowId === "a")?.waiting).toBe(0);
  });

  it("holds nothing while no backend can take traffic (the pool's outage handling decides)", async () => {
    const { gate, room } = gateWith(0);
    const tickets = await Promise.all(["a:0", "a:0", "none:0"].map((id) => gate.enter(id, undefined, FAR)));
    expect(tickets.map((t) => t.grant.flowId)).toEqual(["a", "a", ""]);
    room.capacity = 1;
    gate.pump(true);
    const waiting = tracked(gate.enter("a:0", undefined, FAR));
    await settle();
    expect(waiting.value).toBeUndefined();
    for (const ticket of tickets) gate.leave(ticket);
    await settle();
    expect(waiting.value?.grant.flowId).toBe("a");
  });

  it("charges nothing for a grant given back unused", async () => {
    const { gate } = gateWith(1);
    const ticket = await gate.enter("a:0", undefined, FAR);
    gate.leave(ticket, false);
    expect(gate.snapshot().flows.find((f) => f.flowId === "a")?.charged).toBe(0);
  });
});
