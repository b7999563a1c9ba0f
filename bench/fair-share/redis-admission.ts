// Slot-time of two runs (weights 3:1) admitted by a control-plane engine with no pools to the Redis
// INIT queue, run by a worker engine on the same Redis (moved here from the queue package's test:
// the ratio is a measurement of real time, the test keeps the order and counts).
import { randomUUID } from "node:crypto";
import type { TStage } from "@raas/shared";
import {
  sleepJobsOfRun,
  startFairShareEngines,
} from "../../packages/queue/test/support/redis-fair-share-engines";
import { until } from "../../packages/queue/test/support/until";

interface StageSpan {
  jobId: string;
  stage: TStage;
  startMs: number;
  endMs: number | null;
}

export interface RedisAdmissionResult {
  /** Slot-time of the weight-3 run over the weight-1 run's, in the measured window. */
  slotTimeRatio: number;
  jobsEnded: number;
  windowMs: number;
}

/**
 * Runs `jobsPerRun` jobs of each run (heavy: weight 3, RUN 40 ms; light: weight 1, RUN 80 ms),
 * warms up for `warmUp` ended jobs, then measures slot-time until `measured` more have ended.
 */
export async function measureRedisAdmission(options: {
  url: string;
  jobsPerRun: number;
  warmUp: number;
  measured: number;
}): Promise<RedisAdmissionResult> {
  const spans: StageSpan[] = [];
  const open = new Map<string, StageSpan>();
  const { server, stop } = await startFairShareEngines({
    url: options.url,
    prefix: `raas-bench-${randomUUID().slice(0, 8)}`,
    onStage: ({ jobId, stage, phase }) => {
      const key = `${jobId} ${stage}`;
      if (phase === "start") {
        const span: StageSpan = { jobId, stage, startMs: performance.now(), endMs: null };
        spans.push(span);
        open.set(key, span);
      } else {
        const span = open.get(key);
        if (span) span.endMs = performance.now();
        open.delete(key);
      }
    },
  });
  try {
    const jobs = (runId: string, weight: number, runMs: number) =>
      sleepJobsOfRun(runId, weight, runMs, options.jobsPerRun);
    const runOf = new Map<string, string>();
    for (const { job } of await server.submitJobs(jobs("run_heavy", 3, 40))) runOf.set(job.id, "run_heavy");
    for (const { job } of await server.submitJobs(jobs("run_light", 1, 80))) runOf.set(job.id, "run_light");
    const evalsEnded = () => spans.filter((s) => s.stage === "eval" && s.endMs !== null).length;
    await until(() => evalsEnded() >= options.warmUp, "the warm-up", 300_000);
    const fromMs = performance.now();
    await until(() => evalsEnded() >= options.warmUp + options.measured, "the measured jobs", 300_000);
    const toMs = performance.now();
    const slotMs = new Map<string, number>();
    for (const span of spans) {
      const start = Math.max(span.startMs, fromMs);
      const end = Math.min(span.endMs ?? toMs, toMs);
      const run = runOf.get(span.jobId) as string;
      if (end > start) slotMs.set(run, (slotMs.get(run) ?? 0) + (end - start));
    }
    await server.cancel({ batchId: "run_heavy" });
    await server.cancel({ batchId: "run_light" });
    return {
      slotTimeRatio: (slotMs.get("run_heavy") ?? 0) / (slotMs.get("run_light") ?? 1),
      jobsEnded: evalsEnded(),
      windowMs: toMs - fromMs,
    };
  } finally {
    await stop();
  }
}
