import { BUS_CHANNELS, MemoryEventBus, systemClock } from "@raas/engine";
import { ManualClock } from "@raas/engine/testing";
import type { TPolicyState } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { MemoryBatchStore } from "../memory/memory-batch-store";
import { BusPolicySink, followPolicy } from "./bus-policy-sink";
import { PolicyControl } from "./policy-control";

/** A sink that records what it was given (a worker's inference pool stands here). */
function recordingSink(): { states: TPolicyState[]; applyPolicy(state: TPolicyState): void } {
  const states: TPolicyState[] = [];
  return { states, applyPolicy: (state) => void states.push(state) };
}

describe("BusPolicySink and followPolicy", () => {
  it("carries every policy change to a follower's sink, and the stored state at its start", async () => {
    const bus = new MemoryEventBus();
    const store = new MemoryBatchStore();
    const control = new PolicyControl({
      store,
      sinks: [new BusPolicySink(bus)],
      clock: { ...systemClock, now: () => 1_000 },
    });
    await control.start();
    await control.setWeightVersion(3);

    // A worker starting now reads the stored state, then follows the bus.
    const worker = recordingSink();
    const following = await followPolicy({ bus, sink: worker, load: () => store.listPolicyStates() });
    const policy = { policyId: "default", ownerId: null };
    expect(worker.states).toEqual([
      { ...policy, weightVersion: 3, isPaused: false, pauseMode: null, pausedAtMs: null },
    ]);

    await control.pause({ mode: "abort-and-continue" });
    await control.resume({ weightVersion: 4 });
    expect(worker.states.slice(1)).toEqual([
      { ...policy, weightVersion: 3, isPaused: true, pauseMode: "abort-and-continue", pausedAtMs: 1_000 },
      { ...policy, weightVersion: 4, isPaused: false, pauseMode: null, pausedAtMs: null },
    ]);

    await following.stop();
    await control.pause();
    expect(worker.states).toHaveLength(3);
  });

  it("re-applies the stored states every reloadIntervalMs of its clock, making up a lost message", async () => {
    const clock = new ManualClock();
    const bus = new MemoryEventBus();
    const at = (weightVersion: number): TPolicyState => ({
      policyId: "default",
      ownerId: null,
      weightVersion,
      isPaused: false,
      pauseMode: null,
      pausedAtMs: null,
    });
    let stored = [at(3)];
    let loads = 0;
    const worker = recordingSink();
    const following = await followPolicy({
      bus,
      sink: worker,
      clock,
      reloadIntervalMs: 5_000,
      load: async () => {
        loads += 1;
        return stored;
      },
    });
    expect(loads).toBe(1);
    // Version 4 is stored, and its bus message never arrives.
    stored = [at(4)];
    await clock.advance(4_999);
    expect(loads).toBe(1);
    await clock.advance(1);
    expect(loads).toBe(2);
    expect(worker.states.map((state) => state.weightVersion)).toEqual([3, 4]);
    await clock.advance(5_000);
    expect(loads).toBe(3);

    await following.stop();
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(20_000);
    expect(loads).toBe(3);
  });

  it("reports a malformed message and applies nothing", async () => {
    const bus = new MemoryEventBus();
    const worker = recordingSink();
    const errors: unknown[] = [];
    const following = await followPolicy({ bus, sink: worker, onError: (error) => errors.push(error) });
    await bus.publish(BUS_CHANNELS.policy, "not json");
    await bus.publish(BUS_CHANNELS.policy, JSON.stringify({ weightVersion: "x" }));
    expect(worker.states).toEqual([]);
    expect(errors).toHaveLength(2);
    await following.stop();
  });
});
