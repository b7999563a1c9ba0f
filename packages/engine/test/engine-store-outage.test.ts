import { afterEach, describe, expect, it } from "vitest";
import { HandlerRegistry } from "../src/handler-registry";
import { createSleepHandler } from "../src/handlers/sleep-handler";
import { MemoryEventBus } from "../src/memory/memory-event-bus";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import type { JobTransitionWrite, StoredJob } from "../src/ports/job-record.types";
import { RolloutEngine } from "../src/rollout-engine";
import { ManualClock } from "../src/testing/manual-clock";
import { jobReaches } from "./engine-harness";

const refused = () =>
  Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

/**
 * The shared store, unreachable (every read and transition refused) while `isDown`; its next
 * `trajectoryDeletesRefused` trajectory deletes are refused too (an outage that begins just
 * after a transition).
 */
class FlakyStore extends MemoryJobStore {
  isDown = false;
  trajectoryDeletesRefused = 0;

  override async deleteTrajectory(jobId: string): Promise<void> {
    if (this.trajectoryDeletesRefused > 0) {
      this.trajectoryDeletesRefused -= 1;
      throw refused();
    }
    return super.deleteTrajectory(jobId);
  }

  override async readJob(id: string): Promise<StoredJob | null> {
    if (this.isDown) throw refused();
    return super.readJob(id);
  }

  override async transitionJobs(writes: readonly JobTransitionWrite[]): Promise<string[]> {
    if (this.isDown) throw refused();
    return super.transitionJobs(writes);
  }
}

/** Counts the store reads refused from now on. */
function spyOnReads(store: FlakyStore): { count: number } {
  const counter = { count: 0 };
  const read = store.readJob.bind(store);
  store.readJob = async (id) => {
    if (store.isDown) counter.count += 1;
    return read(id);
  };
  return counter;
}

const started: RolloutEngine[] = [];
afterEach(async () => {
  for (const made of started.splice(0)) await made.stop({ graceMs: 0 });
});

describe("a worker engine whose store is unreachable when it takes a job", () => {
  it("puts the item back and runs it once the store is back: no error, no extra attempt", async () => {
    const clock = new ManualClock();
    const store = new FlakyStore();
    const shared = { store, queue: new MemoryJobQueue({ clock }), bus: new MemoryEventBus(), clock };
    const handlers = new HandlerRegistry().register(createSleepHandler({ clock }));
    const pools = (concurrency: number) => {
      const pool = { concurrency, timeoutMs: 10_000 };
      return { init: pool, run: pool, eval: pool };
    };
    const errors: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn() {},
      error: (_fields: Record<string, unknown>, message: string) => void errors.push(message),
    };
    const api = new RolloutEngine({ ...shared, handlers, workerId: "api", pools: pools(0) });
    const worker = new RolloutEngine({
      ...shared,
      handlers,
      workerId: "worker",
      pools: { ...pools(1), init: { concurrency: 0, timeoutMs: 10_000 } },
      logger,
    });
    for (const made of [api, worker]) {
      await made.start();
      started.push(made);
    }
    const [submitted] = await api.submitJobs([
      { kind: "sleep", payload: { initMs: 1, runMs: 1, evalMs: 1, reward: 1 } },
    ]);
    const id = submitted?.job.id as string;

    /** Moves time on 10 ms at a time, letting both engines commit what each step started. */
    const advance = async (ms: number) => {
      for (let moved = 0; moved < ms; moved += 10) {
        await clock.advance(10);
        await Promise.all([api.flush(), worker.flush()]);
      }
    };
    const statusOf = async () => (await store.getJob(id))?.status;

    await api.flush();
    expect(await statusOf()).toBe("queued");
    store.isDown = true;
    const readsRefused = spyOnReads(store);
    worker.setConcurrency("init", 1);
    // Longer than the worker's 2 s wait before it puts a refused item back: it tries again.
    await advance(5_000);
    expect(readsRefused.count).toBeGreaterThanOrEqual(2);
    expect(await statusOf()).toBe("queued");
    store.isDown = false;

    for (let step = 0; step < 100 && (await statusOf()) !== "completed"; step++) await advance(100);
    expect(await store.getJob(id)).toMatchObject({ status: "completed", attempts: 1, reward: 1 });
    expect(errors).toEqual([]);
  }, 40_000);
});

describe("a job restarted from INIT while its store is unreachable", () => {
  it("drops the earlier attempt's trajectory once the store is back and runs again", async () => {
    const store = new FlakyStore();
    const queue = new MemoryJobQueue();
    const handlers = new HandlerRegistry().register(createSleepHandler());
    const errors: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn() {},
      error: (_fields: Record<string, unknown>, message: string) => void errors.push(message),
    };
    const engine = async (workerId: string, run: number) => {
      const pool = (concurrency: number) => ({ concurrency, timeoutMs: 10_000 });
      const made = new RolloutEngine({
        store,
        queue,
        handlers,
        workerId,
        recoverAtStart: "unheld",
        pools: { init: pool(1), run: pool(run), eval: pool(1) },
        logger,
      });
      await made.start();
      started.push(made);
      return made;
    };
    // INIT on w1, which stops holding the sandbox; its RUN item then reaches w2 unaddressed (as a
    // distributed queue re-delivers a stalled item), so w2 restarts the job from INIT.
    const w1 = await engine("w1", 0);
    const { job } = await w1.submitJob({
      kind: "sleep",
      payload: { initMs: 1, runMs: 1, evalMs: 1, reward: 1 },
    });
    await jobReaches(w1, job.id, (stored) => stored.stage === "run");
    await w1.stop({ graceMs: 0 });
    const w2 = await engine("w2", 1);
    store.trajectoryDeletesRefused = 2;
    await queue.enqueue({ jobId: job.id, stage: "run", priority: 0 });

    const { jobs } = await w2.waitForJobs([job.id], { timeoutMs: 20_000 });
    expect(jobs[0]).toMatchObject({ status: "completed", attempts: 2, reward: 1 });
    expect(store.trajectoryDeletesRefused).toBe(0);
    expect(errors).toEqual([]);
  }, 40_000);
});
