import { describe, expect, it } from "vitest";
import { MemoryEventBus } from "../src/memory/memory-event-bus";
import { MemoryWorkerStore } from "../src/memory/memory-worker-store";
import type { SandboxEventRecord } from "../src/ports/sandbox-event-store.port";
import type { SandboxHostStatus } from "../src/ports/sandbox-runtime.port";
import { DeadHostSweeper, MemorySandboxEventStore } from "../src/sandbox-events/index";
import { ManualClock } from "../src/testing/manual-clock";
import { WorkerMonitor } from "../src/workers/index";

const SELF = "server:1";

async function register(store: MemoryWorkerStore, id: string, atMs: number): Promise<void> {
  await store.register({
    id,
    hostname: id.split(":")[0]!,
    pid: 1,
    labels: [],
    pools: {},
    sandboxes: 1,
    startedAtMs: atMs,
    heartbeatAtMs: atMs,
  });
}

function opened(sandboxId: string, hostId: string, atMs: number): SandboxEventRecord[] {
  return [
    {
      sandboxId,
      jobId: `job_${sandboxId}`,
      hostId,
      type: "created",
      state: "starting",
      // Each host's base directory of its own (a fresh one per worker process).
      detail: { hostDir: `/bases/${hostId}/${sandboxId}` },
      atMs,
    },
    {
      sandboxId,
      jobId: `job_${sandboxId}`,
      hostId,
      type: "ready",
      state: "ready",
      detail: {},
      atMs: atMs + 5,
    },
  ];
}

/** A runtime whose base directory holds one directory per host id; `reapStaleDirs` asks about each. */
class FakeRuntime {
  readonly asked = new Map<string, SandboxHostStatus>();
  readonly baseDirs: string[][] = [];
  constructor(private readonly hostIds: string[]) {}
  async reapStaleDirs(
    status: (hostId: string) => Promise<SandboxHostStatus>,
    options: { baseDirs?: readonly string[] } = {},
  ): Promise<string[]> {
    this.baseDirs.push([...(options.baseDirs ?? [])].sort());
    const removed: string[] = [];
    for (const hostId of this.hostIds) {
      const answer = await status(hostId);
      this.asked.set(hostId, answer);
      if (answer === "gone") removed.push(`/base/sbx-of-${hostId}`);
    }
    return removed;
  }
}

describe("DeadHostSweeper", () => {
  it("closes the records of lost hosts, and of hosts stopped past the grace; reaps only gone hosts' directories", async () => {
    const clock = new ManualClock();
    const workers = new MemoryWorkerStore();
    const records = new MemorySandboxEventStore();
    const start = clock.now();
    for (const id of ["lost:1", "live:1", "stopped-long:1", "stopped-now:1", SELF]) {
      await register(workers, id, start);
      await records.appendEvents(opened(`sb-${id}`, id, start));
    }
    await records.appendEvents(opened("sb-unregistered", "unknown:1", start));
    await workers.markStopped("stopped-long:1", start);
    await clock.advance(120_000);
    await workers.heartbeat("live:1", { pools: {}, sandboxes: 1, atMs: clock.now() });
    await workers.heartbeat(SELF, { pools: {}, sandboxes: 1, atMs: clock.now() });
    await workers.heartbeat("stopped-now:1", { pools: {}, sandboxes: 1, atMs: clock.now() });
    await workers.markStopped("stopped-now:1", clock.now());
    expect((await workers.markLost(clock.now() - 9_000)).map((worker) => worker.id)).toEqual(["lost:1"]);

    const runtime = new FakeRuntime([
      "lost:1",
      "live:1",
      "stopped-long:1",
      "stopped-now:1",
      "unknown:1",
      SELF,
    ]);
    const sweeper = new DeadHostSweeper({
      workers,
      records,
      runtime,
      selfHostId: SELF,
      clock,
      stoppedGraceMs: 60_000,
    });
    expect(await sweeper.sweep()).toEqual({ closedRecords: 2, removedDirs: 2 });

    expect(await records.getSandbox("sb-lost:1")).toMatchObject({
      state: "failed",
      closeReason: "worker_lost",
      closedAtMs: clock.now(),
    });
    expect(await records.getSandbox("sb-stopped-long:1")).toMatchObject({
      state: "closed",
      closeReason: "worker_stopped",
    });
    for (const id of ["live:1", "stopped-now:1", SELF, "unregistered"]) {
      expect((await records.getSandbox(`sb-${id}`))?.state, id).toBe("ready");
    }
    expect(Object.fromEntries(runtime.asked)).toEqual({
      "lost:1": "gone",
      "live:1": "live",
      "stopped-long:1": "gone",
      "stopped-now:1": "live",
      "unknown:1": "unknown",
      [SELF]: "live",
    });
    expect((await records.summarize()).live).toBe(4);
    // The base directories of the records it closed are swept too (no live process may share them).
    expect(runtime.baseDirs).toEqual([["/bases/lost:1", "/bases/stopped-long:1"]]);
    // Idempotent.
    expect(await sweeper.sweep()).toEqual({ closedRecords: 0, removedDirs: 2 });
    expect(runtime.baseDirs[1]).toEqual([]);
  });

  it("sweeps as soon as the monitor announces a lost worker, and on its interval", async () => {
    const clock = new ManualClock();
    const workers = new MemoryWorkerStore();
    const records = new MemorySandboxEventStore();
    const bus = new MemoryEventBus();
    await register(workers, "doomed:1", clock.now());
    await records.appendEvents(opened("sb-doomed", "doomed:1", clock.now()));
    const sweeper = new DeadHostSweeper({
      workers,
      records,
      bus,
      selfHostId: SELF,
      clock,
      intervalMs: 600_000,
    });
    await sweeper.start();
    const monitor = new WorkerMonitor({
      store: workers,
      bus,
      clock,
      intervalMs: 3_000,
      missedAfterMs: 9_000,
    });
    monitor.start();
    await clock.advance(12_000);
    await monitor.stop();
    const reasonOf = async (id: string) => (await records.getSandbox(id))?.closeReason;
    await expect.poll(() => reasonOf("sb-doomed")).toBe("worker_lost");

    // A host lost while no announcement reached this process: the interval's sweep closes its records.
    await register(workers, "quiet:1", clock.now());
    await records.appendEvents(opened("sb-quiet", "quiet:1", clock.now()));
    await clock.advance(10_000);
    await workers.markLost(clock.now() - 9_000);
    expect((await records.getSandbox("sb-quiet"))?.state).toBe("ready");
    await clock.advance(600_000);
    await expect.poll(() => reasonOf("sb-quiet")).toBe("worker_lost");
    await sweeper.stop();
    expect(clock.pendingTimers).toBe(0);
  });
});
