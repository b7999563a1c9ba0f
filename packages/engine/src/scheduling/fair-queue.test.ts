import { describe, expect, it } from "vitest";
import {
  arriveUnit,
  dispatchUnit,
  emptyFairQueue,
  type FairQueueState,
  type FlowShare,
  finishUnit,
  pickFlow,
  pruneIdleFlows,
  withdrawUnit,
} from "./fair-queue";

const share = (weight: number, priority = 0, maxInService: number | null = null): FlowShare => ({
  weight,
  priority,
  maxInService,
});

function arriveMany(state: FairQueueState, flowId: string, flowShare: FlowShare, count: number) {
  let next = state;
  for (let i = 0; i < count; i += 1) next = arriveUnit(next, flowId, flowShare);
  return next;
}

/** Serves `count` units, each of its flow's cost, finishing each at once; returns the order. */
function serve(state: FairQueueState, count: number, costOf: (flowId: string) => number) {
  const order: string[] = [];
  let next = state;
  for (let i = 0; i < count; i += 1) {
    const flow = pickFlow(next);
    if (!flow) break;
    order.push(flow.id);
    const cost = costOf(flow.id);
    next = finishUnit(dispatchUnit(next, flow.id, cost), flow.id, cost, cost);
  }
  return { order, state: next };
}

describe("weighted fair queuing", () => {
  it("serves two backlogged flows of weights 3:1 in a 3:1 ratio", () => {
    let state = arriveMany(emptyFairQueue(), "a", share(3), 400);
    state = arriveMany(state, "b", share(1), 400);
    const { order } = serve(state, 400, () => 10);
    expect(order.filter((id) => id === "a").length).toBe(300);
    expect(order.filter((id) => id === "b").length).toBe(100);
  });

  it("shares cost, not unit counts: a flow of long units gets fewer of them", () => {
    let state = arriveMany(emptyFairQueue(), "short", share(1), 500);
    state = arriveMany(state, "long", share(1), 500);
    const costs: Record<string, number> = { short: 10, long: 40 };
    const { order } = serve(state, 250, (id) => costs[id] as number);
    const slotTime = (id: string) => order.filter((x) => x === id).length * (costs[id] as number);
    expect(slotTime("short") / slotTime("long")).toBeCloseTo(1, 1);
  });

  it("charges the real cost when it differs from the estimate", () => {
    let state = arriveMany(emptyFairQueue(), "a", share(1), 100);
    state = arriveMany(state, "b", share(1), 100);
    // Both are estimated at 10, but a's units really cost 30: b gets three units per a's one.
    const order: string[] = [];
    for (let i = 0; i < 80; i += 1) {
      const flow = pickFlow(state);
      if (!flow) break;
      order.push(flow.id);
      state = dispatchUnit(state, flow.id, 10);
      state = finishUnit(state, flow.id, flow.id === "a" ? 30 : 10, 10);
    }
    expect(order.filter((id) => id === "b").length).toBe(60);
  });

  it("serves a higher priority tier first, whatever the tags", () => {
    let state = arriveMany(emptyFairQueue(), "low", share(100), 5);
    state = arriveUnit(state, "high", share(1, 5));
    expect(pickFlow(state)?.id).toBe("high");
  });

  it("respects a flow's cap on units in service", () => {
    let state = arriveMany(emptyFairQueue(), "capped", share(10, 0, 2), 5);
    state = arriveMany(state, "other", share(1), 5);
    state = dispatchUnit(state, "capped", 1);
    state = dispatchUnit(state, "capped", 1);
    expect(pickFlow(state)?.id).toBe("other");
    state = dispatchUnit(state, "other", 10);
    expect(pickFlow(state)?.id).toBe("other"); // capped has the lower tag but no room
    state = finishUnit(state, "capped", 1, 1);
    expect(pickFlow(state)?.id).toBe("capped");
  });

  it("gives an idle flow no credit: it restarts at the virtual time", () => {
    let state = arriveMany(emptyFairQueue(), "busy", share(1), 50);
    state = serve(state, 40, () => 10).state;
    state = arriveMany(state, "late", share(1), 50);
    const { order } = serve(state, 20, () => 10);
    // Alternates instead of serving the late flow 40 times in a row to "catch up".
    expect(order.filter((id) => id === "late").length).toBeLessThanOrEqual(11);
    expect(order.filter((id) => id === "late").length).toBeGreaterThanOrEqual(9);
  });

  it("starts a newcomer at the backlogged flows' tags, not at a clock inflated by over-estimates", () => {
    // a's first units were estimated at 1000 but really cost 10: once corrected, b must not wait.
    let state = arriveMany(emptyFairQueue(), "a", share(1), 100);
    for (let i = 0; i < 5; i += 1) state = dispatchUnit(state, "a", 1_000);
    for (let i = 0; i < 5; i += 1) state = finishUnit(state, "a", 10, 1_000);
    state = arriveMany(state, "b", share(1), 100);
    const { order } = serve(state, 20, () => 10);
    expect(order.filter((id) => id === "b").length).toBeGreaterThanOrEqual(9);
  });

  it("forgets idle flows and drops withdrawn units", () => {
    let state = arriveUnit(emptyFairQueue(), "a", share(1));
    state = withdrawUnit(state, "a");
    expect(pickFlow(state)).toBeNull();
    expect(pruneIdleFlows(state).flows.size).toBe(0);
  });
});
