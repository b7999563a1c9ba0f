import { describe, expect, it } from "vitest";
import { MemoryEventBus } from "../src/memory/memory-event-bus";
import { MemoryWorkerStore } from "../src/memory/memory-worker-store";
import { BUS_CHANNELS } from "../src/ports/event-bus.port";
import type { BackendView } from "../src/ports/inference-pool.port";
import type { WorkerBeat, WorkerRecord, WorkerStore } from "../src/ports/worker-store.port";
import { StickyRouter } from "../src/routing/sticky-router";
import { ManualClock } from "../src/testing/manual-clock";
import { parseWorkerBusMessage, WorkerHeartbeat, type WorkerHeartbeatOptions } from "../src/workers/index";

function setUp(overrides: Partial<WorkerHeartbeatOptions> = {}) {
  const clock = new ManualClock();
  const store = new MemoryWorkerStore();
  const bus = new MemoryEventBus();
  const occupancy = { active: 0, sandboxes: 0 };
  const calls: string[] = [];
  const heartbeat = new WorkerHeartbeat({
    store,
    workerId: "node-3:4711",
    hostname: "node-3",
    pid: 4711,
    labels: ["apptainer"],
    pools: () => ({ run: { concurrency: 8, active: occupancy.active } }),
    sandboxes: () => occupancy.sandboxes,
    intervalMs: 3_000,
    clock,
    bus,
    onDrain: () => void calls.push("drain"),
    onResume: () => void calls.push("resume"),
    onLost: (worker) => void calls.push(`lost:${worker.status}`),
    ...overrides,
  });
  return { clock, store, bus, occupancy, calls, heartbeat };
}

describe("WorkerHeartbeat", () => {
  it("registers with hostname, pid, labels and pools, then beats every interval with fresh occupancy", async () => {
    const { clock, store, bus, occupancy, heartbeat } = setUp();
    const announced: string[] = [];
    await bus.subscribe(BUS_CHANNELS.workers, (message) =>
      announced.push(parseWorkerBusMessage(message)!.type),
    );
    const startedAt = clock.now();
    await heartbeat.start();
    expect(await store.get("node-3:4711")).toEqual({
      id: "node-3:4711",
      hostname: "node-3",
      pid: 4711,
      labels: ["apptainer"],
      pools: { run: { concurrency: 8, active: 0 } },
      sandboxes: 0,
      backends: [],
      status: "active",
      startedAtMs: startedAt,
      heartbeatAtMs: startedAt,
      stoppedAtMs: null,
      images: null,
      prefetchRequests: [],
      unhealthyReason: null,
    });
    occupancy.active = 5;
    occupancy.sandboxes = 6;
    await clock.advance(3_000);
    expect(await store.get("node-3:4711")).toMatchObject({
      pools: { run: { concurrency: 8, active: 5 } },
      sandboxes: 6,
      heartbeatAtMs: startedAt + 3_000,
    });
    occupancy.active = 2;
    await clock.advance(3_000);
    expect(await store.get("node-3:4711")).toMatchObject({
      pools: { run: { concurrency: 8, active: 2 } },
      heartbeatAtMs: startedAt + 6_000,
    });
    // Besides its stored beat, one `alive` on the bus per interval (the monitor hears it when stored beats lag).
    expect(announced).toEqual(["registered", "alive", "alive"]);
    await heartbeat.stop();
  });

  it("stores this process's backend views with every beat", async () => {
    const backends: BackendView[] = [];
    const { clock, store, heartbeat } = setUp({ backends: () => backends });
    await heartbeat.start();
    expect((await store.get("node-3:4711"))?.backends).toEqual([]);
    const router = new StickyRouter();
    router.registerBackend({ id: "gpu-1", modelName: "m", weightVersion: "step-3", maxConcurrency: 8 }, 0);
    router.release(router.acquire("job-1", 0)!.backendId, { type: "failure" }, 1);
    router.acquire("job-2", 2);
    backends.push(
      ...router
        .listBackends(3)
        .map((snapshot) => ({ ...snapshot, kind: "vllm" as const, baseUrl: "http://g:1" })),
    );
    await clock.advance(3_000);
    expect((await store.get("node-3:4711"))?.backends).toMatchObject([
      { id: "gpu-1", weightVersion: "step-3", inFlight: 1, stats: { requests: 1, errors: 1 } },
    ]);
    await heartbeat.stop();
  });

  it("stores the worker's unhealthy reason with every beat, and clears it once healthy", async () => {
    let reason: string | null = null;
    const { clock, store, heartbeat } = setUp({ unhealthyReason: () => reason });
    await heartbeat.start();
    expect((await store.get("node-3:4711"))?.unhealthyReason).toBeNull();
    reason = "sandboxes: 3 sandbox start(s) in a row failed on this worker";
    await clock.advance(3_000);
    expect((await store.get("node-3:4711"))?.unhealthyReason).toBe(reason);
    reason = null;
    await heartbeat.beat();
    expect((await store.get("node-3:4711"))?.unhealthyReason).toBeNull();
    await heartbeat.stop();
  });

  it("calls onDrain once when an admin drains it and onResume when resumed", async () => {
    const { clock, store, calls, heartbeat } = setUp();
    await heartbeat.start();
    await store.setDraining("node-3:4711", true);
    await clock.advance(3_000);
    await clock.advance(3_000);
    expect(calls).toEqual(["drain"]);
    expect(heartbeat.status).toBe("draining");
    await store.setDraining("node-3:4711", false);
    await clock.advance(3_000);
    expect(calls).toEqual(["drain", "resume"]);
    expect(heartbeat.status).toBe("active");
    await heartbeat.stop();
  });

  it("learns from its beat that it was marked lost, once, and does not revive the record", async () => {
    const { clock, store, calls, heartbeat } = setUp();
    await heartbeat.start();
    expect(await store.markLost(clock.now() + 1)).toHaveLength(1);
    await heartbeat.beat();
    await heartbeat.beat();
    expect(calls).toEqual(["lost:lost"]);
    expect((await store.get("node-3:4711"))?.status).toBe("lost");
    await heartbeat.stop();
  });

  it("keeps beating after a failed beat, and registers again when its record is gone", async () => {
    let failNext = false;
    let wiped = false;
    const store = new MemoryWorkerStore();
    // The real store, with a connection failure and a wiped record injected into two beats.
    const flaky: WorkerStore = {
      register: (worker) => store.register(worker),
      setDraining: (id, draining) => store.setDraining(id, draining),
      markStopped: (id, atMs) => store.markStopped(id, atMs),
      markLost: (beforeMs) => store.markLost(beforeMs),
      get: (id) => store.get(id),
      list: (options) => store.list(options),
      requestPrefetch: (ids, request) => store.requestPrefetch(ids, request),
      heartbeat(workerId: string, beat: WorkerBeat): Promise<WorkerRecord | null> {
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error("connection refused"));
        }
        if (wiped) {
          wiped = false;
          return Promise.resolve(null);
        }
        return store.heartbeat(workerId, beat);
      },
    };
    const warnings: string[] = [];
    const logger = {
      debug() {},
      info() {},
      error() {},
      warn: (_: unknown, message: string) => warnings.push(message),
    };
    const { clock, heartbeat } = setUp({ store: flaky, logger });
    await heartbeat.start();
    failNext = true;
    await clock.advance(3_000);
    expect(warnings).toEqual(["worker heartbeat failed; trying again next interval"]);
    await clock.advance(3_000);
    expect((await store.get("node-3:4711"))?.heartbeatAtMs).toBe(clock.now());
    wiped = true;
    await clock.advance(3_000);
    expect(await store.get("node-3:4711")).toMatchObject({ status: "active", startedAtMs: clock.now() });
    await heartbeat.stop();
  });

  it("stop() marks the worker stopped, announces it and leaves no timer behind", async () => {
    const { clock, store, bus, heartbeat } = setUp();
    const announced: string[] = [];
    await bus.subscribe(BUS_CHANNELS.workers, (message) =>
      announced.push(parseWorkerBusMessage(message)!.type),
    );
    await heartbeat.start();
    await clock.advance(1_000);
    await heartbeat.stop();
    await heartbeat.stop();
    expect(await store.get("node-3:4711")).toMatchObject({ status: "stopped", stoppedAtMs: clock.now() });
    expect(clock.pendingTimers).toBe(0);
    expect(announced).toEqual(["registered", "stopped"]);
  });
});
