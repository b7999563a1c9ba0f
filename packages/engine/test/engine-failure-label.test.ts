import type { TJob } from "@raas/shared";
import { policyFailure, stageFailure } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineHandler } from "../src/define-handler";
import { HandlerRegistry } from "../src/handler-registry";
import { createSleepHandler } from "../src/handlers/sleep-handler";
import { MemoryEventBus } from "../src/memory/memory-event-bus";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import type { TaskHandler } from "../src/ports/task-handler.port";
import { RolloutEngine } from "../src/rollout-engine";

/** What a grader whose canaries lied reports: which canary, what it said, what was true. */
const REPORT = {
  graded: { passed: ["test_fix"], failed: [] },
  canaries: [{ name: "test_canary_7f3a_must_fail", expected: "failed", reported: "passed" }],
};

/**
 * A grader-like test handler: EVAL voids the grade when the payload says its canaries lied, else
 * fails as the policy's own (unlabelled) fault. Its `failureReward` is 0.5, so a reward of 0 shows
 * the label forced it.
 */
function canaryHandler(): TaskHandler<{ lie: boolean }, null, null> {
  return {
    kind: "canary",
    failureReward: 0.5,
    payloadSchema: z.object({ lie: z.boolean() }).strict(),
    async init() {
      return null;
    },
    async run() {
      return null;
    },
    async eval(ctx) {
      if (ctx.payload.lie)
        throw policyFailure("canary test_canary_7f3a_must_fail reported passed", {
          label: "tampered",
          result: REPORT,
        });
      throw policyFailure("the agent gave up");
    },
  };
}

const started: Array<{ stop: () => Promise<void> }> = [];
afterEach(async () => {
  for (const made of started.splice(0).reverse()) await made.stop();
});

const pools = (concurrency: number) => {
  const pool = { concurrency, timeoutMs: 10_000 };
  return { init: pool, run: pool, eval: pool };
};

async function startEngines(options: { distributed: boolean }) {
  const store = new MemoryJobStore();
  const queue = new MemoryJobQueue();
  const bus = new MemoryEventBus();
  const handlers = new HandlerRegistry()
    .register(defineHandler(canaryHandler()))
    .register(createSleepHandler({ failureReward: 0.5 }));
  const shared = { store, queue, handlers, ...(options.distributed ? { bus } : {}) };
  // Distributed: an API-only engine (no pools) hears of the jobs a worker ran over the bus only.
  const api = new RolloutEngine({ ...shared, workerId: "api", pools: pools(options.distributed ? 0 : 2) });
  const engines = [api];
  if (options.distributed)
    engines.push(new RolloutEngine({ ...shared, workerId: "worker", pools: pools(2) }));
  for (const engine of engines) {
    await engine.start();
    started.push({ stop: () => engine.stop({ graceMs: 0 }) });
  }
  started.push({ stop: () => queue.close() });
  return { api, store };
}

describe("a labelled stage failure (a grade voided because its canaries lied)", () => {
  it("fails the job as the policy's: kind agent, label tampered, trainable, reward 0, the report kept", async () => {
    const { api, store } = await startEngines({ distributed: false });
    const heard: TJob[] = [];
    api.subscribe(({ job }) => {
      if (job.status === "failed") heard.push(job);
    });
    const [tampered, gaveUp] = await api.submitJobs([
      { kind: "canary", payload: { lie: true } },
      { kind: "canary", payload: { lie: false } },
    ]);
    const ids = [tampered?.job.id as string, gaveUp?.job.id as string];
    const { jobs, done } = await api.waitForJobs(ids, { timeoutMs: 10_000 });
    expect(done).toBe(true);
    expect(jobs[0]).toMatchObject({
      status: "failed",
      failure: {
        kind: "agent",
        stage: "eval",
        message: "canary test_canary_7f3a_must_fail reported passed",
        label: "tampered",
      },
      trainable: true,
      reward: 0,
      result: REPORT,
    });
    // An unlabelled agent failure keeps the handler's failure reward and has no label or report.
    expect(jobs[1]).toMatchObject({ status: "failed", trainable: true, reward: 0.5, result: null });
    expect(jobs[1]?.failure).toEqual({ kind: "agent", stage: "eval", message: "the agent gave up" });

    await api.flush();
    const stored = await store.readJob(ids[0] as string);
    expect(stored?.record.failure?.label).toBe("tampered");
    expect(stored?.record.result).toEqual(REPORT);
    expect(heard.find((job) => job.id === ids[0])?.failure?.label).toBe("tampered");

    const stats = api.stats();
    expect(stats.failedByKind.agent).toBe(2);
    expect(stats.failedByLabel).toEqual({ tampered: 1, misconfigured: 0 });
    expect(await store.totals()).toMatchObject({
      failedByKind: { agent: 2 },
      failedByLabel: { tampered: 1 },
    });
  });

  it("keeps the label and report across processes: bus events, the store and the other process's stats", async () => {
    const { api, store } = await startEngines({ distributed: true });
    const [job] = await api.submitJobs([
      {
        kind: "sleep",
        payload: {
          initMs: 1,
          runMs: 1,
          evalMs: 1,
          fail: { eval: { rate: 1, kind: "agent", label: "tampered" } },
        },
      },
    ]);
    const id = job?.job.id as string;
    const { jobs, done } = await api.waitForJobs([id], { timeoutMs: 10_000 });
    expect(done).toBe(true);
    expect(jobs[0]).toMatchObject({
      status: "failed",
      failure: { kind: "agent", stage: "eval", label: "tampered" },
      trainable: true,
      reward: 0,
      result: { injected: "tampered", stage: "eval" },
    });
    // The end reached the API process as an event (or a store read) that counted it first.
    expect(api.stats().failedByLabel.tampered).toBe(1);
    expect(api.stats().failedByKind.agent).toBe(1);
    expect((await api.getJob(id)).failure?.label).toBe("tampered");
    expect((await store.getJob(id))?.failure?.label).toBe("tampered");
  });

  it("seeds the label counts of a restarted engine from the store", async () => {
    const { api, store } = await startEngines({ distributed: false });
    const [job] = await api.submitJobs([{ kind: "canary", payload: { lie: true } }]);
    await api.waitForJobs([job?.job.id as string], { timeoutMs: 10_000 });
    await api.flush();
    const restarted = new RolloutEngine({
      store,
      queue: new MemoryJobQueue(),
      handlers: new HandlerRegistry(),
    });
    await restarted.start();
    started.push({ stop: () => restarted.stop({ graceMs: 0 }) });
    expect(restarted.stats().failedByLabel).toEqual({ tampered: 1, misconfigured: 0 });
  });

  it("refuses a label on an infrastructure kind where the handler makes it", () => {
    expect(() => stageFailure("eval", "x", { label: "tampered" })).toThrow(/needs kind "agent"/);
    const failure = policyFailure("x", { label: "tampered", result: REPORT });
    expect([failure.failure.kind, failure.failure.label, failure.failure.result]).toEqual([
      "agent",
      "tampered",
      REPORT,
    ]);
    expect(stageFailure("sandbox", "y").failure.label).toBeNull();
  });

  it("rejects a sleep payload that injects a label on an infrastructure kind", async () => {
    const { api } = await startEngines({ distributed: false });
    await expect(
      api.submitJob({
        kind: "sleep",
        payload: { fail: { eval: { rate: 1, kind: "eval", label: "tampered" } } },
      }),
    ).rejects.toThrow(/the failure label `tampered` needs kind `agent`/);
    await expect(
      api.submitJob({
        kind: "sleep",
        payload: { fail: { init: { rate: 1, kind: "agent", label: "misconfigured" } } },
      }),
    ).rejects.toThrow(/the failure label `misconfigured` needs kind `sandbox`/);
  });
});

describe("a failure the job's own configuration caused (callerConfigFailure)", () => {
  it("stores it as sandbox, label misconfigured, reward null, and never starts it again", async () => {
    const { api, store } = await startEngines({ distributed: true });
    const sleepFailing = (fail: Record<string, unknown>) => ({
      kind: "sleep",
      payload: { initMs: 1, runMs: 1, evalMs: 1, fail: { init: { rate: 1, kind: "sandbox", ...fail } } },
    });
    const [misconfigured, broken] = await api.submitJobs([
      sleepFailing({ label: "misconfigured" }),
      sleepFailing({}),
    ]);
    const ids = [misconfigured?.job.id as string, broken?.job.id as string];
    const { jobs, done } = await api.waitForJobs(ids, { timeoutMs: 10_000 });
    expect(done).toBe(true);
    expect(jobs[0]).toMatchObject({
      status: "failed",
      failure: {
        kind: "sandbox",
        stage: "init",
        message: "injected misconfigured failure in init",
        label: "misconfigured",
      },
      trainable: false,
      reward: null,
      attempts: 1,
      result: { injected: "misconfigured", stage: "init" },
    });
    // An ordinary sandbox failure is the host's: started again up to maxAttempts (3), unlabelled.
    expect(jobs[1]).toMatchObject({ status: "failed", trainable: false, reward: null, attempts: 3 });
    expect(jobs[1]?.failure?.kind).toBe("sandbox");
    expect(jobs[1]?.failure?.label).toBeUndefined();
    expect((await store.getJob(ids[0] as string))?.failure?.label).toBe("misconfigured");
    expect(api.stats().failedByLabel).toEqual({ tampered: 0, misconfigured: 1 });
    expect(await api.listJobs({ failureLabel: "misconfigured", limit: 10 })).toMatchObject({
      items: [{ id: ids[0] }],
    });
  });
});
