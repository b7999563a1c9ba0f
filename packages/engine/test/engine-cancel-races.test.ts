import type { TStage } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import type { EngineLogger } from "../src/engine.types";
import { HandlerRegistry } from "../src/handler-registry";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import type { Lease, ReserveOptions } from "../src/ports/job-queue.port";
import { RolloutEngine as Engine, type RolloutEngine, type StageFinishedEvent } from "../src/rollout-engine";
import { ManualClock } from "../src/testing/manual-clock";
import { jobReaches, settleIo } from "./engine-harness";
import { FakeSandboxRuntime } from "./fake-sandbox-runtime";
import { Busy, Points, sandboxedHandler } from "./sandboxed-handler";

/**
 * A cancel can land at any moment of a job's life; these tests hold the job still at each moment
 * of a sandbox's start and of a stage's end (gates in the handler and in the runtime, no sleeps),
 * cancel there, and check that the race settles completely and quietly: every sandbox started is
 * closed, the job ends cancelled, the queue item is acknowledged, the stage-finished event is
 * emitted, and nothing is logged as an error.
 */

/** Counts leases handed out and not yet acknowledged (a lease left to expire is an item waiting). */
class TrackingQueue extends MemoryJobQueue {
  readonly outstanding = new Set<string>();
  nacks = 0;

  override async reserve(
    stage: TStage,
    leaseMs: number,
    signal: AbortSignal,
    options?: ReserveOptions,
  ): Promise<Lease | null> {
    const lease = await super.reserve(stage, leaseMs, signal, options);
    if (lease) this.outstanding.add(lease.leaseId);
    return lease;
  }

  override async ack(lease: Lease): Promise<void> {
    this.outstanding.delete(lease.leaseId);
    await super.ack(lease);
  }

  override async nack(lease: Lease, delayMs?: number): Promise<void> {
    this.outstanding.delete(lease.leaseId);
    this.nacks += 1;
    await super.nack(lease, delayMs);
  }
}

interface LogLine {
  level: keyof EngineLogger;
  message: string;
  fields: Record<string, unknown>;
}

interface Harness {
  engine: RolloutEngine;
  runtime: FakeSandboxRuntime;
  points: Points;
  queue: TrackingQueue;
  finished: StageFinishedEvent[];
  logs: LogLine[];
  busy: Busy;
  close(): Promise<void>;
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function startHarness(
  options: { honoursAbort?: boolean; failStage?: TStage; evalSandbox?: boolean } = {},
): Promise<Harness> {
  const clock = new ManualClock();
  const runtime = new FakeSandboxRuntime({ honoursAbort: options.honoursAbort ?? false });
  const points = new Points();
  const busy = new Busy();
  const logs: LogLine[] = [];
  const line = (level: keyof EngineLogger) => (fields: Record<string, unknown>, message: string) =>
    logs.push({ level, message, fields });
  const logger: EngineLogger = {
    debug: line("debug"),
    info: line("info"),
    warn: line("warn"),
    error: line("error"),
  };
  const store = new MemoryJobStore();
  const queue = new TrackingQueue({ clock });
  const engine = new Engine({
    store,
    queue,
    clock,
    logger,
    handlers: new HandlerRegistry().register(sandboxedHandler(runtime, points, options, busy)),
    pools: {
      init: { concurrency: 2, timeoutMs: 60_000 },
      run: { concurrency: 2, timeoutMs: 60_000 },
      eval: { concurrency: 2, timeoutMs: 60_000 },
    },
  });
  const finished: StageFinishedEvent[] = [];
  engine.onStageFinished((event) => finished.push(event));
  await engine.start();
  harness = {
    engine,
    runtime,
    points,
    queue,
    finished,
    logs,
    busy,
    async close() {
      await engine.stop({ graceMs: 0 });
      await queue.close();
      await store.close();
    },
  };
  return harness;
}

/** Waits until the cancelled job and its handler have come to rest, then checks the race settled fully. */
async function expectSettled(h: Harness, jobId: string, stage: TStage, sandboxesStarted: number) {
  await jobReaches(h.engine, jobId, (job) => job.status !== "active");
  await h.busy.idle();
  await h.engine.flush();
  await settleIo();
  expect(h.logs.filter((entry) => entry.level === "error")).toEqual([]);
  const job = await h.engine.getJob(jobId);
  expect(job.status).toBe("cancelled");
  expect(job.failure?.kind).toBe("cancelled");
  expect(h.finished.filter((event) => event.jobId === jobId && event.stage === stage)).toHaveLength(1);
  expect(h.queue.outstanding.size).toBe(0);
  expect(h.queue.nacks).toBe(0);
  expect(h.runtime.sandboxes).toHaveLength(sandboxesStarted);
  expect(h.runtime.open.map((sandbox) => sandbox.id)).toEqual([]);
  expect(h.engine.heldSandboxes).toBe(0);
}

/** Waits until the cancel is stored and the job's end has run (the moment a slow start outlives). */
async function untilCancelStored(h: Harness, jobId: string): Promise<void> {
  await jobReaches(h.engine, jobId, (job) => job.status === "cancelled");
  await h.engine.flush();
  await settleIo();
}

async function submit(h: Harness): Promise<string> {
  const { job } = await h.engine.submitJob({ kind: "sandboxed", payload: {} });
  return job.id;
}

describe("a cancel during a sandbox's start closes the sandbox", () => {
  it("before the create call: a runtime that starts it anyway has it closed", async () => {
    const h = await startHarness();
    const gate = h.points.arm("init:before-create");
    const id = await submit(h);
    await gate.reached;
    expect((await h.engine.cancel({ jobId: id })).cancelled).toEqual([id]);
    await untilCancelStored(h, id);
    gate.release();
    await expectSettled(h, id, "init", 1);
  });

  it("during create, when the runtime does not honour the abort", async () => {
    const h = await startHarness({ honoursAbort: false });
    const hold = h.runtime.holdCreates();
    const id = await submit(h);
    await hold.entered;
    await h.engine.cancel({ jobId: id });
    await untilCancelStored(h, id);
    hold.release();
    await expectSettled(h, id, "init", 1);
  });

  it("after create returned, before the sandbox was handed to the job", async () => {
    const h = await startHarness();
    const gate = h.points.arm("init:after-create");
    const id = await submit(h);
    await gate.reached;
    await h.engine.cancel({ jobId: id });
    await untilCancelStored(h, id);
    gate.release();
    await expectSettled(h, id, "init", 1);
  });

  it("during an EVAL sandbox's create: the stage's own sandbox is closed too", async () => {
    const h = await startHarness({ evalSandbox: true });
    const gate = h.points.arm("eval:before-create");
    const id = await submit(h);
    await gate.reached;
    const hold = h.runtime.holdCreates();
    gate.release();
    await hold.entered;
    await h.engine.cancel({ jobId: id });
    await untilCancelStored(h, id);
    hold.release();
    await expectSettled(h, id, "eval", 2);
  });
});

describe("a cancel racing a stage's end settles quietly", () => {
  for (const [point, stage] of [
    ["init:end", "init"],
    ["run:end", "run"],
    ["eval:end", "eval"],
  ] as const) {
    it(`after ${stage} returned, before its transition (${point})`, async () => {
      const h = await startHarness();
      const gate = h.points.arm(point);
      const id = await submit(h);
      await gate.reached;
      expect((await h.engine.cancel({ jobId: id })).cancelled).toEqual([id]);
      gate.release();
      await expectSettled(h, id, stage, 1);
    });
  }

  it("after a stage failed, before its failure was stored", async () => {
    const h = await startHarness({ failStage: "run" });
    const gate = h.points.arm("run:end");
    const id = await submit(h);
    await gate.reached;
    await h.engine.cancel({ jobId: id });
    gate.release();
    await expectSettled(h, id, "run", 1);
  });
});
