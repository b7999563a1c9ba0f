import { MemoryEventBus, MemoryJobQueue } from "@raas/engine";
import { RedisEventBus, RedisJobQueue } from "@raas/queue";
import { afterEach, describe, expect, it } from "vitest";
import { deleteKeys, freshPrefix, REDIS_URL } from "../../../packages/queue/test/support/redis-test-env";
import { until } from "../../../packages/queue/test/support/until";
import { probeJob, startTwoEnginesOnPostgres, type TwoEnginesTransport } from "./two-engines.fixture";

interface Mode {
  name: string;
  /** Queue and bus of each engine (the same objects, or one connection each to one Redis). */
  open(): TwoEnginesTransport;
  cleanup(): Promise<void>;
}

const memoryMode = (): Mode => ({
  name: "one MemoryJobQueue and one MemoryEventBus",
  open() {
    const queue = new MemoryJobQueue();
    const bus = new MemoryEventBus();
    return { queues: [queue, queue], buses: [bus, bus] };
  },
  cleanup: async () => {},
});

const redisMode = (): Mode => {
  let prefix = "";
  return {
    name: "a RedisJobQueue and a RedisEventBus each, on one Redis",
    open() {
      prefix = freshPrefix();
      const queue = () => new RedisJobQueue({ url: REDIS_URL, prefix, stalledIntervalMs: 1_000 });
      const bus = () => new RedisEventBus({ url: REDIS_URL, prefix });
      return { queues: [queue(), queue()], buses: [bus(), bus()] };
    },
    cleanup: () => deleteKeys(REDIS_URL, prefix),
  };
};

// Two RolloutEngine instances stand for two processes: each has its own store connection pool on
// one PostgreSQL schema, and its own queue and bus (or shared in-process ones).
for (const mode of [memoryMode(), redisMode()]) {
  describe(`two engines over one PostgreSQL store, ${mode.name}`, () => {
    let started: Awaited<ReturnType<typeof startTwoEnginesOnPostgres>> | null = null;

    async function start() {
      started = await startTwoEnginesOnPostgres(mode.open());
      return started;
    }

    afterEach(async () => {
      await started?.stop();
      started = null;
      await mode.cleanup();
    });

    it("runs jobs submitted to one engine on both, each job's RUN and EVAL where its INIT ran; B's events reach A", async () => {
      const { a, b, runs, stores, terminalSeenByA } = await start();
      const submitted = await a.submitJobs(
        Array.from({ length: 24 }, () => probeJob({ initMs: 30, runMs: 30, evalMs: 5 })),
      );
      const ids = submitted.map((s) => s.job.id);
      const { done, jobs } = await a.waitForJobs(ids, { timeoutMs: 30_000 });
      expect(done).toBe(true);
      expect(jobs.map((job) => job.status)).toEqual(ids.map(() => "completed"));
      const workerOf = (id: string, stage: string) =>
        runs.find((r) => r.jobId === id && r.stage === stage)?.worker;
      for (const id of ids) {
        expect(runs.filter((r) => r.jobId === id).map((r) => r.stage)).toEqual(["init", "run", "eval"]);
        expect(workerOf(id, "run")).toBe(workerOf(id, "init"));
        expect(workerOf(id, "eval")).toBe(workerOf(id, "init"));
      }
      const onB = ids.filter((id) => workerOf(id, "init") === "w2");
      expect(onB.length).toBeGreaterThan(0);
      expect(onB.length).toBeLessThan(ids.length);
      // A heard the completion of every job, those B completed included (through the bus), once each.
      await until(() => ids.every((id) => terminalSeenByA.has(id)), "A to hear every completion");
      for (const id of ids) expect(terminalSeenByA.get(id)?.map((job) => job.status)).toEqual(["completed"]);
      // Each engine's queued/active gauges count only what it holds: all back to 0.
      for (const engine of [a, b]) {
        await until(
          () =>
            Object.values(engine.stats().stages).every((stage) => stage.queued === 0 && stage.active === 0),
          `${engine.workerId}'s queued/active gauges to return to 0`,
          5_000,
        );
      }
      const stored = await stores[0].listJobs({ limit: 100 });
      expect(stored.items.filter((job) => job.status === "completed")).toHaveLength(24);
    });

    it("a cancel sent to A aborts the job running on B and closes its sandbox there", async () => {
      const { a, b, runs, closed, stores } = await start();
      const submitted = await a.submitJobs(
        Array.from({ length: 8 }, () => probeJob({ initMs: 5, runMs: 60_000, evalMs: 5 })),
      );
      const ids = submitted.map((s) => s.job.id);
      let target = "";
      await until(async () => {
        for (const id of ids) {
          const job = await b.getJob(id);
          if (
            job.status === "active" &&
            job.stage === "run" &&
            runs.some((r) => r.jobId === id && r.worker === "w2")
          ) {
            target = id;
            return true;
          }
        }
        return false;
      }, "a job running on B");
      expect(await a.cancel({ jobId: target })).toEqual({ cancelled: [target] });
      await until(
        () => runs.some((r) => r.jobId === target && r.stage === "run" && r.end === "aborted"),
        "B to abort RUN",
      );
      await until(() => closed.includes(`w2:${target}`), "B to close the sandbox");
      const cancelled = await a.getJob(target);
      expect(cancelled).toMatchObject({ status: "cancelled", failure: { kind: "cancelled", stage: "run" } });
      expect(runs.some((r) => r.jobId === target && r.stage === "run" && r.end === "ok")).toBe(false);
      expect((await stores[1].getJob(target))?.status).toBe("cancelled");
    });

    it("a worker stopped without draining is recovered by another: all its jobs complete there, none twice", async () => {
      const { a, b, runs, stores, terminalSeenByA } = await start();
      const submitted = await a.submitJobs(
        Array.from({ length: 16 }, () => probeJob({ initMs: 20, runMs: 400, evalMs: 5 })),
      );
      const ids = submitted.map((s) => s.job.id);
      await until(
        () => runs.filter((r) => r.worker === "w2" && r.stage === "init").length >= 3,
        "B to initialise jobs",
      );
      await b.stop({ graceMs: 0 });
      const recovery = await a.recoverWorker("w2");
      expect(recovery.failed).toEqual([]);
      expect(recovery.restarted.length).toBeGreaterThan(0);
      // Recovering again finds nothing: each job was restarted once.
      expect(await a.recoverWorker("w2")).toEqual({ restarted: [], failed: [] });
      const { done, jobs } = await a.waitForJobs(ids, { timeoutMs: 60_000 });
      expect(done).toBe(true);
      expect(jobs.map((job) => job.status)).toEqual(ids.map(() => "completed"));
      for (const id of recovery.restarted) {
        expect((await a.getJob(id)).attempts).toBe(2);
        const last = runs.filter((r) => r.jobId === id && r.end === "ok").slice(-3);
        expect(last.map((r) => `${r.stage}@${r.worker}`)).toEqual(["init@w1", "run@w1", "eval@w1"]);
      }
      await until(() => ids.every((id) => terminalSeenByA.has(id)), "A to hear every completion");
      for (const id of ids) expect(terminalSeenByA.get(id)).toHaveLength(1);
      expect((await stores[0].listJobsHeldBy("w2")).length).toBe(0);
    });
  });
}
