import type { TJob } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineHandler } from "../src/define-handler";
import { HandlerRegistry } from "../src/handler-registry";
import { MemoryEventBus } from "../src/memory/memory-event-bus";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import { RolloutEngine } from "../src/rollout-engine";
import { jobReaches } from "./engine-harness";

interface Signal {
  promise: Promise<void>;
  resolve: () => void;
}

/** What the probe's RUN did, per `worker:jobId`: it started, and it was aborted. */
interface RunLog {
  started: Map<string, Signal>;
  aborted: Map<string, Signal>;
}

function signalOf(log: Map<string, Signal>, key: string): Signal {
  let entry = log.get(key);
  if (!entry) {
    let resolve = () => {};
    const promise = new Promise<void>((settle) => {
      resolve = settle;
    });
    entry = { promise, resolve };
    log.set(key, entry);
  }
  return entry;
}

/**
 * A handler whose RUN, on the worker its payload names in `holdOn`, holds until aborted (a stage
 * still running there); on any other worker every stage ends at once, EVAL with reward 0.75 and a
 * result naming the worker.
 */
function probeHandler(worker: string, log: RunLog) {
  return defineHandler({
    kind: "probe",
    payloadSchema: z.object({ holdOn: z.string().nullable() }).strict(),
    init: async () => ({}),
    run: async (ctx) => {
      signalOf(log.started, `${worker}:${ctx.job.id}`).resolve();
      if (ctx.payload.holdOn !== worker) return {};
      return new Promise<object>((_, reject) => {
        ctx.signal.addEventListener("abort", () => {
          signalOf(log.aborted, `${worker}:${ctx.job.id}`).resolve();
          reject(ctx.signal.reason);
        });
      });
    },
    eval: async () => ({ reward: 0.75, result: { by: worker } }),
  });
}

const started: RolloutEngine[] = [];

afterEach(async () => {
  for (const made of started.splice(0)) await made.stop({ graceMs: 0 });
});

/**
 * Two processes over one store and one queue whose bus lost every message between them (each
 * has a bus of its own): what one does to a job, the other learns only from the store. `a` runs
 * every stage (one slot each); `b` starts with no slots (an API replica) until given some.
 */
async function twoProcesses() {
  const store = new MemoryJobStore();
  const queue = new MemoryJobQueue();
  const log: RunLog = { started: new Map(), aborted: new Map() };
  const make = async (workerId: string, concurrency: number) => {
    const pool = { concurrency, timeoutMs: 60_000 };
    const engine = new RolloutEngine({
      store,
      queue,
      bus: new MemoryEventBus(),
      workerId,
      handlers: new HandlerRegistry().register(probeHandler(workerId, log)),
      pools: { init: pool, run: pool, eval: pool },
    });
    await engine.start();
    started.push(engine);
    return engine;
  };
  const a = await make("A", 1);
  const b = await make("B", 0);
  const heardByA: TJob[] = [];
  a.subscribe(({ job }) => heardByA.push(job));
  const runStarted = (worker: string, jobId: string) => signalOf(log.started, `${worker}:${jobId}`).promise;
  const runAborted = (worker: string, jobId: string) => signalOf(log.aborted, `${worker}:${jobId}`).promise;
  return { a, b, store, heardByA, runStarted, runAborted };
}

/** A job whose RUN holds on A, stored active there; then B recovers A's jobs as if A were lost. */
async function jobRecoveredAwayFromA(setup: Awaited<ReturnType<typeof twoProcesses>>) {
  const { a, b, store, runStarted } = setup;
  const { job } = await a.submitJob({ kind: "probe", payload: { holdOn: "A" } });
  await runStarted("A", job.id);
  await a.flush();
  // A takes no new work: the restarted job is left to B.
  a.setConcurrency("init", 0);
  expect(await b.recoverWorker("A")).toEqual({ restarted: [job.id], failed: [] });
  const restarted = await store.readJob(job.id);
  expect(restarted?.record).toMatchObject({ status: "queued", stage: "init", attempts: 2 });
  return { id: job.id, restartedVersion: restarted?.version as number };
}

describe("RolloutEngine reads a job's state from the store, not from its own copy", () => {
  it("reads a job another process finished (state, result, version) and cancels nothing there", async () => {
    const setup = await twoProcesses();
    const { a, b, store, heardByA, runAborted } = setup;
    const { id } = await jobRecoveredAwayFromA(setup);
    for (const stage of ["init", "run", "eval"] as const) b.setConcurrency(stage, 1);
    await jobReaches(b, id, (job) => job.status === "completed");
    const finished = await store.readJob(id);

    // A still runs its stale RUN of the job, but answers what the store holds.
    const read = await a.getJob(id);
    expect(read).toMatchObject({ status: "completed", reward: 0.75, result: { by: "B" }, attempts: 2 });
    expect(read).toEqual(finished?.record);
    // The stored end reached A's listeners once, as the event the bus lost.
    expect(heardByA.filter((job) => job.id === id && job.status === "completed")).toHaveLength(1);

    // Cancelling through A acts on the stored state: the job had ended, so nothing is cancelled,
    // the store is untouched, and A's stale stage is stopped.
    expect(await a.cancel({ jobId: id })).toEqual({ cancelled: [] });
    await runAborted("A", id);
    await a.flush();
    expect(await store.readJob(id)).toEqual(finished);
  });

  it("cancels what the store holds for a job another process moved on, not A's stale copy", async () => {
    const setup = await twoProcesses();
    const { a, store, runAborted } = setup;
    const { id, restartedVersion } = await jobRecoveredAwayFromA(setup);

    // A's copy says active in RUN; the store says queued for INIT again (no slot takes it).
    expect(await a.cancel({ jobId: id })).toEqual({ cancelled: [id] });
    await runAborted("A", id);
    const stored = await store.readJob(id);
    expect(stored?.version).toBe(restartedVersion + 1);
    expect(stored?.record).toMatchObject({
      status: "cancelled",
      failure: { kind: "cancelled", stage: "init" },
    });
    expect(await a.getJob(id)).toEqual(stored?.record);
  });

  it("answers a keyed resubmit with the job as stored, after another process cancelled it", async () => {
    const { a, b } = await twoProcesses();
    a.setConcurrency("init", 0);
    const request = { kind: "probe", payload: { holdOn: null }, jobKey: "key-1" };
    const first = await a.submitJob(request);
    expect(first).toMatchObject({ created: true, job: { status: "queued" } });

    expect(await b.cancel({ jobId: first.job.id })).toEqual({ cancelled: [first.job.id] });
    const again = await a.submitJob(request);
    expect(again).toMatchObject({ created: false, job: { id: first.job.id, status: "cancelled" } });
  });

  it("reads a job it saw end from the store too, once another process stored a newer version", async () => {
    const { a, store, heardByA } = await twoProcesses();
    const { job } = await a.submitJob({ kind: "probe", payload: { holdOn: null } });
    await jobReaches(a, job.id, (seen) => seen.status === "completed");
    const ended = await store.readJob(job.id);
    expect(ended?.record).toMatchObject({ status: "completed", reward: 0.75, result: { by: "A" } });

    // Another process rewrites the finished job in the store (a compare-and-set on its version).
    const version = ended?.version as number;
    const patch = {
      id: job.id,
      reward: 0.25,
      result: { by: "grader-2" },
      updatedAtMs: (ended?.record.updatedAtMs ?? 0) + 1,
    };
    expect(await store.transitionJobs([{ patch, expectedVersion: version, version: version + 1 }])).toEqual(
      [],
    );

    expect(await a.getJob(job.id)).toMatchObject({
      status: "completed",
      reward: 0.25,
      result: { by: "grader-2" },
    });
    const heardEnds = heardByA.filter((seen) => seen.id === job.id && seen.status === "completed");
    expect(heardEnds.map((seen) => seen.reward)).toEqual([0.75, 0.25]);
  });
});
