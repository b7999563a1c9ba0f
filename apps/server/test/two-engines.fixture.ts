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

/** One stage run as a probe handler saw it. */
export interface StageRun {
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
export interface EnginePorts {
  store: JobStore;
  queue: JobQueue;
  bus: EventBus;
}

/** Two engines (w1, w2) over one store, queue and bus, each with its own probe handler. */
export function twoEngines(ports: [EnginePorts, EnginePorts]) {
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

export const probeJob = (ms: { initMs: number; runMs: number; evalMs: number }) => ({
  kind: "probe",
  payload: ms,
});
