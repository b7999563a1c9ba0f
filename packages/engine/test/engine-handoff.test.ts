import type { TStage } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { HandlerRegistry } from "../src/handler-registry";
import { createSleepHandler } from "../src/handlers/sleep-handler";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import { RolloutEngine } from "../src/rollout-engine";
import { jobReaches, settleIo } from "./engine-harness";

const store = new MemoryJobStore();
const queue = new MemoryJobQueue();
const started: RolloutEngine[] = [];
const stageStarts: Array<{ jobId: string; stage: TStage; worker: string }> = [];

async function engine(workerId: string, options: { run?: number; maxAttempts?: number } = {}) {
  const handlers = new HandlerRegistry().register(
    createSleepHandler({
      onStage: (event) => {
        if (event.phase === "start")
          stageStarts.push({ jobId: event.jobId, stage: event.stage, worker: workerId });
      },
    }),
  );
  const pool = (concurrency: number) => ({ concurrency, timeoutMs: 10_000 });
  const made = new RolloutEngine({
    store,
    queue,
    handlers,
    workerId,
    recoverAtStart: "unheld",
    ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
    pools: { init: pool(2), run: pool(options.run ?? 2), eval: pool(2) },
  });
  await made.start();
  started.push(made);
  return made;
}

afterEach(async () => {
  for (const made of started.splice(0)) await made.stop({ graceMs: 0 });
});

/** A job INIT'd on w1 (which then stops), with its RUN item re-delivered unaddressed to w2. */
async function runHandedToAnotherWorker(options: { maxAttempts?: number }) {
  const w1 = await engine("w1", { run: 0 });
  const { job } = await w1.submitJob({ kind: "sleep", payload: { initMs: 1, runMs: 1, evalMs: 1 } });
  await jobReaches(w1, job.id, (stored) => stored.stage === "run");
  await w1.stop({ graceMs: 0 });
  expect(await store.readJob(job.id)).toMatchObject({
    record: { status: "queued", stage: "run" },
    handoff: { workerId: "w1", sandboxId: `w1/${job.id}/1` },
  });
  const w2 = await engine("w2", options);
  // As a distributed queue re-delivers a stalled item: RUN reaches a worker without the sandbox.
  await queue.enqueue({ jobId: job.id, stage: "run", priority: 0 });
  const { jobs } = await w2.waitForJobs([job.id], { timeoutMs: 10_000 });
  return jobs[0];
}

describe("RolloutEngine stage handoff", () => {
  it("stores where a job's sandbox lives and addresses its RUN to that worker", async () => {
    const w1 = await engine("w1", { run: 0 });
    await engine("w2");
    const { job } = await w1.submitJob({ kind: "sleep", payload: { initMs: 1, runMs: 1, evalMs: 1 } });
    await jobReaches(w1, job.id, (stored) => stored.stage === "run");
    await w1.flush();
    await settleIo();
    // w2's RUN loops are already waiting in the queue, which hands an item to a waiting
    // reserver the moment it arrives: the item still in the queue means w2 passed it over.
    expect(await queue.holds(job.id, "run")).toBe(true);
    expect(await queue.depth("run")).toBe(1);
    expect(stageStarts.filter((s) => s.jobId === job.id).map((s) => s.stage)).toEqual(["init"]);
    expect(w1.heldSandboxes).toBe(1);
    w1.setConcurrency("run", 1);
    expect((await w1.waitForJobs([job.id], { timeoutMs: 10_000 })).jobs[0]?.status).toBe("completed");
    expect(stageStarts.filter((s) => s.jobId === job.id).map((s) => `${s.stage}@${s.worker}`)).toEqual([
      "init@w1",
      "run@w1",
      "eval@w1",
    ]);
    await w1.flush();
    await settleIo();
    expect(w1.heldSandboxes).toBe(0);
  });

  it("restarts from INIT a job whose RUN reaches a worker that does not hold its sandbox", async () => {
    const job = await runHandedToAnotherWorker({});
    expect(job).toMatchObject({ status: "completed", attempts: 2 });
    expect(stageStarts.filter((s) => s.jobId === job?.id).map((s) => `${s.stage}@${s.worker}`)).toEqual([
      "init@w1",
      "init@w2",
      "run@w2",
      "eval@w2",
    ]);
  });

  it("fails the job as an infrastructure (sandbox) failure once it used up maxAttempts", async () => {
    const job = await runHandedToAnotherWorker({ maxAttempts: 1 });
    expect(job).toMatchObject({ status: "failed", trainable: false, reward: null, attempts: 1 });
    expect(job?.failure?.kind).toBe("sandbox");
    expect(job?.failure?.message).toMatch(
      /sandbox w1\/.* on worker w1, which worker w2 does not hold.*maxAttempts 1/,
    );
  });

  it("refuses to recover itself", async () => {
    const w1 = await engine("w1");
    expect(() => w1.recoverWorker("w1")).toThrow(/is this engine itself/);
  });
});
