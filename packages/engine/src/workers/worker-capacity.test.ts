import { describe, expect, it } from "vitest";
import { MemoryWorkerStore } from "../memory/memory-worker-store";
import type { WorkerRecord } from "../ports/worker-store.port";
import { liveWorkerSlots, workerCapacity } from "./worker-capacity";

const NOW = 1_000_000;

function worker(id: string, overrides: Partial<WorkerRecord> = {}): WorkerRecord {
  return {
    id,
    hostname: "node-1",
    pid: 1,
    labels: [],
    pools: {
      init: { concurrency: 4, active: 0 },
      run: { concurrency: 8, active: 0 },
      eval: { concurrency: 16, active: 0 },
    },
    sandboxes: 0,
    backends: [],
    status: "active",
    unhealthyReason: null,
    startedAtMs: NOW - 60_000,
    heartbeatAtMs: NOW - 1_000,
    stoppedAtMs: null,
    images: null,
    prefetchRequests: [],
    ...overrides,
  };
}

describe("liveWorkerSlots", () => {
  const options = { nowMs: NOW, missedAfterMs: 9_000 };

  it("sums the INIT + RUN slots of the active workers heard from recently", () => {
    expect(liveWorkerSlots([worker("a"), worker("b")], options)).toBe(24);
  });

  it("leaves out draining, stopped, lost, unhealthy and silent workers, and one that starts no INIT", () => {
    const workers = [
      worker("live"),
      worker("draining", { status: "draining" }),
      worker("stopped", { status: "stopped" }),
      worker("lost", { status: "lost" }),
      worker("silent", { heartbeatAtMs: NOW - 9_001 }),
      worker("sick", { unhealthyReason: "sandboxes fail to start: base directory full" }),
      worker("no-init", {
        pools: { init: { concurrency: 0, active: 0 }, run: { concurrency: 8, active: 3 } },
      }),
    ];
    expect(liveWorkerSlots(workers, options)).toBe(12);
  });

  it("leaves out the asking engine's own worker (it counts its own slots)", () => {
    expect(liveWorkerSlots([worker("self"), worker("other")], { ...options, exceptWorkerId: "self" })).toBe(
      12,
    );
  });
});

describe("workerCapacity", () => {
  it("reads the registry on each call, at the clock's time", async () => {
    const store = new MemoryWorkerStore();
    let nowMs = NOW;
    const clock = { now: () => nowMs, setTimer: () => () => {} };
    const capacity = workerCapacity(store, { exceptWorkerId: "server", missedAfterMs: 9_000, clock });
    expect(await capacity()).toBe(0);
    const { status, stoppedAtMs, unhealthyReason, images, prefetchRequests, ...registration } = worker("w1", {
      heartbeatAtMs: NOW,
      startedAtMs: NOW,
    });
    await store.register(registration);
    await store.register({ ...registration, id: "server" });
    expect(await capacity()).toBe(12);
    nowMs += 10_000;
    expect(await capacity()).toBe(0);
  });
});
