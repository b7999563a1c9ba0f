import type { TJob, TSubmitJobRequest } from "@raas/shared";
import { buildSweBenchReport, formatPredictionsJsonl, summarizeSweReports } from "./swe-bench-format";
import type { TSweInstance } from "./swe-instance.schema";
import type { SweBenchReportEntry, SweEvalReport } from "./swe-report.types";
import { buildSweReport } from "./swe-report-builder";

/** How a benchmark run reaches the service (tRPC client in the CLI, the engine in-process). */
export interface SweJobGateway {
  /** Submits jobs; returns their ids in order (an existing job key returns the existing job). */
  submit(requests: readonly TSubmitJobRequest[]): Promise<string[]>;
  /** Current state of the jobs, after waiting up to `timeoutMs` for any of them to finish. */
  wait(ids: readonly string[], timeoutMs: number): Promise<TJob[]>;
}

/** One instance's outcome in the benchmark store's shape (`BenchmarkResultRecord` minus run id and time). */
export interface SweBenchmarkResult {
  instanceId: string;
  jobId: string | null;
  resolved: boolean;
  /** Test → `PASSED` / `FAILED` / … as graded. */
  failToPass: Record<string, string> | null;
  passToPass: Record<string, string> | null;
  detail: Record<string, unknown>;
}

export interface RunSweBenchmarkOptions {
  instances: readonly TSweInstance[];
  /** Model label (predictions' `model_name_or_path`). */
  model: string;
  /** Run id: part of every job key, so re-running the same id resumes instead of resubmitting. */
  runId: string;
  gateway: SweJobGateway;
  /** Per-job agent overrides (turns, sampling, …) put in every payload. Default none. */
  agent?: Record<string, unknown>;
  /** Per-stage timeouts of every job in ms. Default: the server's. */
  timeoutsMs?: TSubmitJobRequest["timeoutsMs"];
  /** Called after every poll with finished / total counts. */
  onProgress?(progress: { finished: number; total: number; resolved: number; failed: number }): void;
  /** Long-poll window per wait call in ms. Default 5_000. */
  pollMs?: number;
  /** Jobs submitted per call. Default 200. */
  submitChunk?: number;
  /** Unfinished jobs at most; more are submitted as earlier ones finish. Default: all at once. */
  maxInFlight?: number;
  signal?: AbortSignal;
}

export interface SweBenchmarkOutcome {
  reports: SweEvalReport[];
  results: SweBenchmarkResult[];
  /** Jobs that ended without a grade (infrastructure failure or cancel), by instance id. */
  errors: Record<string, string>;
  predictionsJsonl: string;
  report: Record<string, SweBenchReportEntry>;
  summary: ReturnType<typeof summarizeSweReports> & { errors: number };
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** The grade of one finished job; an ungraded job is unresolved with no patch and an error. */
export function gradeSweJob(
  instance: TSweInstance,
  job: TJob,
): { report: SweEvalReport; error: string | null } {
  const result = job.result as Partial<SweEvalReport> | null;
  if (job.status === "completed" && result && typeof result.resolved === "boolean" && result.testsStatus) {
    return { report: result as SweEvalReport, error: null };
  }
  const reason = job.failure
    ? `${job.failure.kind} in ${job.failure.stage}: ${job.failure.message}`
    : job.status;
  return { report: buildSweReport({ instance, modelPatch: null }), error: reason };
}

function outcomes(report: SweEvalReport, key: "FAIL_TO_PASS" | "PASS_TO_PASS"): Record<string, string> {
  const split = report.testsStatus[key];
  return Object.fromEntries([
    ...split.success.map((test) => [test, report.testStatuses[test] ?? "PASSED"]),
    ...split.failure.map((test) => [test, report.testStatuses[test] ?? "MISSING"]),
  ]);
}

/** A graded report as a benchmark-store result. */
export function toSweBenchmarkResult(
  report: SweEvalReport,
  jobId: string | null,
  error: string | null,
): SweBenchmarkResult {
  return {
    instanceId: report.instanceId,
    jobId,
    resolved: report.resolved,
    failToPass: error ? null : outcomes(report, "FAIL_TO_PASS"),
    passToPass: error ? null : outcomes(report, "PASS_TO_PASS"),
    detail: {
      emptyPatch: report.emptyPatch,
      failedApplyPatch: report.failedApplyPatch,
      testTimeout: report.testTimeout,
      patchApplyMethod: report.patchApplyMethod,
      pythonVersion: report.pythonVersion,
      pytestVersion: report.pytestVersion,
      error,
    },
  };
}

function jobRequest(options: RunSweBenchmarkOptions, instance: TSweInstance): TSubmitJobRequest {
  return {
    kind: "swe",
    jobKey: `swe-eval:${options.runId}:${instance.instance_id}`,
    payload: {
      taskId: instance.instance_id,
      instance,
      ...(options.agent !== undefined && { agent: options.agent }),
    },
    ...(options.timeoutsMs !== undefined && { timeoutsMs: options.timeoutsMs }),
    metadata: { benchmarkRunId: options.runId, model: options.model },
  };
}

/**
 * Runs a SWE-bench evaluation through the service: one `swe` job per instance (job key
 * `swe-eval:<runId>:<instance_id>`), waits for all of them, and returns the reports, the
 * predictions JSONL, SWE-bench's report and store-ready results. Ungraded jobs count as
 * unresolved and are listed in `errors`.
 */
export async function runSweBenchmark(options: RunSweBenchmarkOptions): Promise<SweBenchmarkOutcome> {
  const { instances, gateway } = options;
  const seen = new Set<string>();
  for (const instance of instances) {
    if (seen.has(instance.instance_id)) throw new Error(`instance ${instance.instance_id} is listed twice`);
    seen.add(instance.instance_id);
  }
  const chunk = options.submitChunk ?? 200;
  const maxInFlight = Math.max(1, options.maxInFlight ?? Number.POSITIVE_INFINITY);
  const ids: string[] = [];
  const finished = new Map<string, TJob>();
  while (finished.size < instances.length) {
    options.signal?.throwIfAborted();
    const room = Math.min(chunk, maxInFlight - (ids.length - finished.size), instances.length - ids.length);
    if (room > 0) {
      ids.push(
        ...(await gateway.submit(
          instances.slice(ids.length, ids.length + room).map((i) => jobRequest(options, i)),
        )),
      );
      continue;
    }
    const pending = ids.filter((id) => !finished.has(id)).slice(0, 1_000);
    for (const job of await gateway.wait(pending, options.pollMs ?? 5_000)) {
      if (TERMINAL.has(job.status)) finished.set(job.id, job);
    }
    const jobs = [...finished.values()];
    options.onProgress?.({
      finished: finished.size,
      total: instances.length,
      resolved: jobs.filter((job) => job.reward === 1).length,
      failed: jobs.filter((job) => job.status !== "completed").length,
    });
  }
  const reports: SweEvalReport[] = [];
  const results: SweBenchmarkResult[] = [];
  const errors: Record<string, string> = {};
  instances.forEach((instance, index) => {
    const jobId = ids[index] as string;
    const { report, error } = gradeSweJob(instance, finished.get(jobId) as TJob);
    reports.push(report);
    results.push(toSweBenchmarkResult(report, jobId, error));
    if (error !== null) errors[instance.instance_id] = error;
  });
  return {
    reports,
    results,
    errors,
    predictionsJsonl: formatPredictionsJsonl(options.model, reports),
    report: buildSweBenchReport(reports),
    summary: { ...summarizeSweReports(reports), errors: Object.keys(errors).length },
  };
}
