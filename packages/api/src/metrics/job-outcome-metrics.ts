import type { TJob } from "@raas/shared";
import { Counter, type Registry } from "prom-client";

/** Counts a job that reached a terminal state, once (the caller keeps repeats out). */
export type JobOutcomeCounter = (job: TJob) => void;

/**
 * `raas_jobs_{completed,failed,tampered,cancelled}_total`, in `registers` (none: counted but not
 * exported).
 */
export function createJobOutcomeCounter(registers: Registry[]): JobOutcomeCounter {
  const completed = new Counter({
    name: "raas_jobs_completed_total",
    help: "Jobs that completed (reward assigned), by handler kind.",
    labelNames: ["handler"] as const,
    registers,
  });
  const failed = new Counter({
    name: "raas_jobs_failed_total",
    help: "Jobs that failed, by failure kind, the stage they failed in, and handler kind.",
    labelNames: ["failure_kind", "stage", "handler"] as const,
    registers,
  });
  const tampered = new Counter({
    name: "raas_jobs_tampered_total",
    help: "Jobs whose grade was voided because a grader's canary tests reported a false outcome (failure label `tampered`: reward 0, trainable), by the stage they failed in and handler kind. Also counted in raas_jobs_failed_total as kind agent.",
    labelNames: ["stage", "handler"] as const,
    registers,
  });
  const cancelled = new Counter({
    name: "raas_jobs_cancelled_total",
    help: "Jobs cancelled by a caller, by the stage they were in.",
    labelNames: ["stage", "handler"] as const,
    registers,
  });
  return (job) => {
    const stage = job.failure?.stage ?? job.stage ?? "none";
    if (job.status === "completed") completed.inc({ handler: job.kind });
    else if (job.status === "cancelled") cancelled.inc({ stage, handler: job.kind });
    else {
      failed.inc({ failure_kind: job.failure?.kind ?? "unknown", stage, handler: job.kind });
      if (job.failure?.label === "tampered") tampered.inc({ stage, handler: job.kind });
    }
  };
}
