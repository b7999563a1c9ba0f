import { afterEach, describe, expect, it } from "vitest";
import type { EngineLogger } from "../src/engine.types";
import { DEFAULT_HELD_SANDBOX_SWEEP_MS } from "../src/engine-defaults";
import { HandlerRegistry } from "../src/handler-registry";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import { RolloutEngine } from "../src/rollout-engine";
import { ManualClock } from "../src/testing/manual-clock";
import { jobReaches, settleIo } from "./engine-harness";
import { FakeSandboxRuntime } from "./fake-sandbox-runtime";
import { Points, sandboxedHandler } from "./sandboxed-handler";

/**
 * A worker holds a job's sandbox between INIT and RUN. When the job is cancelled by another
 * process and the bus message that would tell the worker is lost, nothing else ever reaches the
 * held sandbox (the RUN item was removed with the cancel): the worker's registry checks the store
 * for what it holds, and closes the sandboxes of jobs the store says have ended.
 */
const started: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of started.splice(0).reverse()) await stop();
});

describe("held sandboxes of jobs that ended elsewhere", () => {
  it("are closed by the holder's sweep when the cancel's bus message never came", async () => {
    const clock = new ManualClock();
    const store = new MemoryJobStore();
    const queue = new MemoryJobQueue({ clock });
    const runtime = new FakeSandboxRuntime();
    const errors: string[] = [];
    const logger: EngineLogger = {
      debug: () => {},
      info: () => {},
      warn: () => {},
      error: (_fields, message) => errors.push(message),
    };
    const pools = (run: number) => ({
      init: { concurrency: 1, timeoutMs: 60_000 },
      run: { concurrency: run, timeoutMs: 60_000 },
      eval: { concurrency: 1, timeoutMs: 60_000 },
    });
    const handlers = () => new HandlerRegistry().register(sandboxedHandler(runtime, new Points(), {}));
    // Each engine has a bus of its own: the worker never hears the API server's cancel.
    const worker = new RolloutEngine({
      store,
      queue,
      clock,
      logger,
      workerId: "wrk_holder",
      handlers: handlers(),
      pools: pools(0),
    });
    const api = new RolloutEngine({
      store,
      queue,
      clock,
      logger,
      workerId: "wrk_api",
      handlers: handlers(),
      recoverAtStart: "unheld",
      pools: { init: { concurrency: 0 }, run: { concurrency: 0 }, eval: { concurrency: 0 } },
    });
    await worker.start();
    started.push(() => worker.stop({ graceMs: 0 }));
    await api.start();
    started.push(() => api.stop({ graceMs: 0 }));

    const { job } = await worker.submitJob({ kind: "sandboxed", payload: {} });
    // RUN has no slot on the worker: once INIT has stored the job as waiting for RUN, it holds the sandbox.
    await jobReaches(worker, job.id, (stored) => stored.stage === "run");
    await worker.flush();
    expect(worker.heldSandboxes).toBe(1);
    expect((await api.cancel({ jobId: job.id })).cancelled).toEqual([job.id]);
    expect(runtime.open).toHaveLength(1);

    await clock.advance(DEFAULT_HELD_SANDBOX_SWEEP_MS);
    await worker.flush();
    await settleIo();
    expect(worker.heldSandboxes).toBe(0);
    expect(runtime.open).toEqual([]);
    expect(errors).toEqual([]);
  });
});
