import { describe, expect, it } from "vitest";
import { MemoryEventBus } from "../src/memory/memory-event-bus";
import { MemoryWorkerStore } from "../src/memory/memory-worker-store";
import { BUS_CHANNELS } from "../src/ports/event-bus.port";
import type { WorkerRecord, WorkerStore } from "../src/ports/worker-store.port";
import { ManualClock } from "../src/testing/manual-clock";
import { parseWorkerBusMessage, WorkerHeartbeat, WorkerMonitor } from "../src/workers/index";

function heartbeatOf(store: MemoryWorkerStore, clock: ManualClock, workerId: string, intervalMs = 3_000) {
  return new WorkerHeartbeat({
    store,
    clock,
    workerId,
    hostname: "node-1",
    pid: 1,
    pools: () => ({ init: { concurrency: 2, active: 1 } }),
    intervalMs,
  });
}

describe("WorkerMonitor", () => {
  it("marks a worker that stopped beating lost after the missed window, announces it and calls onLost", async () => {
    const clock = new ManualClock();
    const store = new MemoryWorkerStore();
    const bus = new MemoryEventBus();
    const announced: unknown[] = [];
    await bus.subscribe(BUS_CHANNELS.workers, (message) => announced.push(parseWorkerBusMessage(message)));
    const lost: WorkerRecord[] = [];
    const monitor = new WorkerMonitor({
      store,
      bus,
      clock,
      intervalMs: 3_000,
      missedAfterMs: 9_000,
      onLost: (worker) => void lost.push(worker),
    });
    const alive = heartbeatOf(store, clock, "alive");
    await alive.start();
    // "doomed" registered once and its process died: nothing beats for it, nothing marks it stopped.
    const silentSince = clock.now();
    await store.register({
      id: "doomed",
      hostname: "node-2",
      pid: 2,
      labels: [],
      pools: {},
      sandboxes: 1,
      startedAtMs: silentSince,
      heartbeatAtMs: silentSince,
    });
    monitor.start();
    await clock.advance(6_000);
    expect(lost).toEqual([]);
    await clock.advance(6_000);
    expect(lost.map((worker) => [worker.id, worker.status, worker.heartbeatAtMs])).toEqual([
      ["doomed", "lost", silentSince],
    ]);
    expect(announced.filter((message) => (message as { type: string }).type === "lost")).toEqual([
      { type: "lost", workerId: "doomed", atMs: expect.any(Number) },
    ]);
    expect((await store.get("alive"))?.status).toBe("active");
    await clock.advance(30_000);
    expect(lost).toHaveLength(1);
    await monitor.stop();
    await alive.stop();
  });

  it("of two servers sweeping the same store, each lost worker reaches exactly one onLost", async () => {
    const clock = new ManualClock();
    const store = new MemoryWorkerStore();
    const handled: string[] = [];
    const monitors = [1, 2].map(
      () =>
        new WorkerMonitor({
          store,
          clock,
          missedAfterMs: 9_000,
          onLost: (worker) => void handled.push(worker.id),
        }),
    );
    for (const id of ["a", "b", "c"]) {
      await store.register({
        id,
        hostname: "h",
        pid: 1,
        labels: [],
        pools: {},
        sandboxes: 0,
        startedAtMs: clock.now(),
        heartbeatAtMs: clock.now(),
      });
    }
    await clock.advance(10_000);
    const [first, second] = await Promise.all(monitors.map((monitor) => monitor.sweep()));
    expect(first!.length + second!.length).toBe(3);
    expect(handled.sort()).toEqual(["a", "b", "c"]);
  });

  it("beats for its own worker before judging, so a stalled process does not lose itself", async () => {
    const clock = new ManualClock();
    const store = new MemoryWorkerStore();
    const lost: string[] = [];
    // A heartbeat whose timer never gets to run in this test (as in a blocked event loop).
    const own = heartbeatOf(store, clock, "self", 1_000_000);
    await own.start();
    const monitor = new WorkerMonitor({
      store,
      clock,
      missedAfterMs: 9_000,
      beforeSweep: () => own.beat(),
      onLost: (worker) => void lost.push(worker.id),
    });
    await clock.advance(60_000);
    expect(await monitor.sweep()).toEqual([]);
    expect(lost).toEqual([]);
    expect((await store.get("self"))?.heartbeatAtMs).toBe(clock.now());
    await own.stop();
  });

  it("a failing onLost does not keep the other lost workers from theirs; stop() leaves no timer", async () => {
    const clock = new ManualClock();
    const store = new MemoryWorkerStore();
    const handled: string[] = [];
    const errors: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn() {},
      error: (_: unknown, message: string) => errors.push(message),
    };
    for (const id of ["a", "b"]) {
      await store.register({
        id,
        hostname: "h",
        pid: 1,
        labels: [],
        pools: {},
        sandboxes: 0,
        startedAtMs: clock.now(),
        heartbeatAtMs: clock.now(),
      });
    }
    const monitor = new WorkerMonitor({
      store,
      clock,
      logger,
      intervalMs: 3_000,
      missedAfterMs: 9_000,
      onLost: (worker) => {
        handled.push(worker.id);
        if (worker.id === "a") throw new Error("recovery failed");
      },
    });
    monitor.start();
    await clock.advance(12_000);
    expect(handled).toEqual(["a", "b"]);
    expect(errors).toEqual(["handling a lost worker failed"]);
    await monitor.stop();
    expect(clock.pendingTimers).toBe(0);
  });

  it("keeps a worker whose stored beats stall but that beats on the bus, and marks it lost once both stop", async () => {
    const clock = new ManualClock();
    const inner = new MemoryWorkerStore();
    const bus = new MemoryEventBus();
    // After a database outage, this worker's writes queue behind a backlog: its stored heartbeat
    // never lands, though the process is alive.
    let isWriteStalled = false;
    const store: WorkerStore = {
      register: (worker) => inner.register(worker),
      heartbeat: (workerId, beat) =>
        isWriteStalled ? new Promise(() => {}) : inner.heartbeat(workerId, beat),
      setDraining: (workerId, draining) => inner.setDraining(workerId, draining),
      markStopped: (workerId, atMs) => inner.markStopped(workerId, atMs),
      markLost: (beforeMs, exceptIds) => inner.markLost(beforeMs, exceptIds),
      get: (workerId) => inner.get(workerId),
      list: (options) => inner.list(options),
      requestPrefetch: (workerIds, request) => inner.requestPrefetch(workerIds, request),
    };
    const lost: string[] = [];
    const monitor = new WorkerMonitor({
      store,
      bus,
      clock,
      intervalMs: 3_000,
      missedAfterMs: 9_000,
      onLost: (worker) => void lost.push(worker.id),
    });
    const slow = new WorkerHeartbeat({
      store,
      bus,
      clock,
      workerId: "slow",
      hostname: "node-1",
      pid: 1,
      pools: () => ({ init: { concurrency: 2, active: 1 } }),
      intervalMs: 3_000,
    });
    await slow.start();
    monitor.start();
    isWriteStalled = true;
    await clock.advance(30_000);
    expect(lost).toEqual([]);
    expect((await inner.get("slow"))?.status).toBe("active");
    // The process dies: no beat of either kind any more (its stalled write never lands, so the
    // stop below never reaches markStopped: as silent as a kill -9).
    void slow.stop();
    await clock.advance(12_000);
    expect(lost).toEqual(["slow"]);
    await monitor.stop();
  });
});
