import { createJobStore } from "@raas/db";
import {
  defineHandler,
  type EventBus,
  HandlerRegistry,
  type JobQueue,
  type JobStore,
  RolloutEngine,
  sleep,
} from "@raas/engine";
import type { TJob, TStage } from "@raas/shared";
import { z } from "zod";
import {
  dropSchema,
  freshSchemaName,
  TEST_DATABASE_URL,
} from "../../../packages/db/test/support/postgres-test-database";

/** One stage run as a probe handler saw it. */
interface StageRun {
  jobId: string;
  stage: TStage;
  worker: string;
  /** How the stage ended on this worker. */
  end: "ok" | "aborted";
}

const ZProbePayload = z.object({ initMs: z.number(), runMs: z.number(), evalMs: z.number() }).strict();

/**
 * A handler whose INIT makes a pretend sandbox owned by `worker`; RUN and EVAL throw unless they
 * are handed that very sandbox (so a stage run on the wrong worker fails), and closing it is
 * recorded. Every stage start and end goes to `runs`.
 */
function probeHandler(worker: string, runs: StageRun[], closed: string[]) {
  const stage = async (jobId: string, name: TStage, ms: number, signal: AbortSignal) => {
    try {
      await sleep(ms, signal);
      runs.push({ jobId, stage: name, worker, end: "ok" });
    } catch (error) {
      runs.push({ jobId, stage: name, worker, end: "aborted" });
      throw error;
    }
  };
  return defineHandler({
    kind: "probe",
    payloadSchema: ZProbePayload,
    init: async (ctx) => {
      await stage(ctx.job.id, "init", ctx.payload.initMs, ctx.signal);
      ctx.deferToJobEnd(() => {
        closed.push(`${worker}:${ctx.job.id}`);
      });
      return { worker, jobId: ctx.job.id };
    },
    run: async (ctx) => {
      if (ctx.init.worker !== worker || ctx.init.jobId !== ctx.job.id) throw new Error("wrong sandbox");
      await stage(ctx.job.id, "run", ctx.payload.runMs, ctx.signal);
      return { steps: 1 };
    },
    eval: async (ctx) => {
      if (ctx.init.worker !== worker) throw new Error("wrong sandbox");
      await stage(ctx.job.id, "eval", ctx.payload.evalMs, ctx.signal);
      return { reward: 1, result: { by: worker } };
    },
  });
}

/** What each of the two engines is given: its own store pool, queue and bus over shared services. */
interface EnginePorts {
  store: JobStore;
  queue: JobQueue;
  bus: EventBus;
}

/** Two engines (w1, w2) over one store, queue and bus, each with its own probe handler. */
function twoEngines(ports: [EnginePorts, EnginePorts]) {
  const runs: StageRun[] = [];
  const closed: string[] = [];
  const make = (workerId: string, { store, queue, bus }: EnginePorts) =>
    new RolloutEngine({
      store,
      queue,
      bus,
      workerId,
      recoverAtStart: "unheld",
      handlers: new HandlerRegistry().register(probeHandler(workerId, runs, closed)),
      pools: {
        init: { concurrency: 3, timeoutMs: 60_000 },
        run: { concurrency: 3, timeoutMs: 60_000 },
        eval: { concurrency: 3, timeoutMs: 60_000 },
      },
    });
  const a = make("w1", ports[0]);
  const b = make("w2", ports[1]);
  /** Terminal events A's listeners heard, per job (from either engine). */
  const terminalSeenByA = new Map<string, TJob[]>();
  const seenByA: TJob[] = [];
  a.subscribe(({ job }) => {
    seenByA.push(job);
    if (job.finishedAtMs !== null) terminalSeenByA.set(job.id, [...(terminalSeenByA.get(job.id) ?? []), job]);
  });
  return { a, b, runs, closed, seenByA, terminalSeenByA };
}

/** Queue and bus of each engine: the same objects, or one connection each to one service. */
export interface TwoEnginesTransport {
  queues: [JobQueue, JobQueue];
  buses: [EventBus, EventBus];
}

/**
 * Two started engines (`twoEngines`) standing for two processes: each has its own store connection
 * pool on one fresh PostgreSQL schema, and the queue and bus `transport` gives it. `stop` stops both,
 * closes every queue, bus and store once, and drops the schema.
 */
export async function startTwoEnginesOnPostgres(transport: TwoEnginesTransport) {
  const schema = freshSchemaName();
  const stores: [JobStore, JobStore] = [
    await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema }),
    await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema }),
  ];
  const { queues, buses } = transport;
  const engines = twoEngines([
    { store: stores[0], queue: queues[0], bus: buses[0] },
    { store: stores[1], queue: queues[1], bus: buses[1] },
  ]);
  const stop = async () => {
    await engines.a.stop({ graceMs: 0 });
    await engines.b.stop({ graceMs: 0 });
    for (const queue of new Set(queues)) await queue.close();
    for (const bus of new Set(buses)) await bus.close();
    for (const store of stores) await store.close();
    await dropSchema(schema);
  };
  try {
    await engines.a.start();
    await engines.b.start();
  } catch (error) {
    await stop();
    throw error;
  }
  return { ...engines, stores, stop };
}

export const probeJob = (ms: { initMs: number; runMs: number; evalMs: number }) => ({
  kind: "probe",
  payload: ms,
});
