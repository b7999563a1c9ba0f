import type { TJob, TSubmitJobRequest } from "@raas/shared";
import type { TSwePrediction } from "./swe-bench-format";
import { formatPredictionsJsonl } from "./swe-bench-format";
import type { TSweInstance } from "./swe-instance.schema";
import { repoSpecFor } from "./swe-repo-spec";
import type { TSweRepoSpec } from "./swe-repo-spec.schema";
import type { SweEvalReport } from "./swe-report.types";
import { buildSweReport, isEmptyPatch } from "./swe-report-builder";
import { buildSweRunSummary, type SweInstanceOutcome, type SweRunSummary } from "./swe-run-summary";

/** A submitted job: its id, whether this call created it, and its status then. */
interface SweSubmittedJob {
  id: string;
  created: boolean;
  status: TJob["status"];
}

/** How a benchmark run reaches the service (tRPC client in the CLI, the engine in-process). */
export interface SweJobGateway {
  /** Submits jobs, in order (an existing job key returns the existing job with `created: false`). */
  submit(requests: readonly TSubmitJobRequest[]): Promise<SweSubmittedJob[]>;
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
  /**
   * Grade these predictions instead of running rollouts: one grade-only job per prediction with a
   * non-empty patch; empty ones are counted as SWE-bench counts them, without a job.
   */
  predictions?: readonly TSwePrediction[];
  /** Specs by `owner/name[@version]`; the matching one goes into each job's payload. Default none. */
  specs?: Record<string, TSweRepoSpec>;
  /** Per-job agent overrides (turns, sampling, …) put in every rollout payload. Default none. */
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
  /** Attempts per instance over all resumes of a run (an errored job is retried on resume). Default 5. */
  maxAttempts?: number;
  signal?: AbortSignal;
}

export interface SweBenchmarkOutcome {
  /** Reports of the graded instances (empty predictions included, graded without a job). */
  reports: SweEvalReport[];
  results: SweBenchmarkResult[];
  /** Jobs that ended without a grade (infrastructure/eval failure or cancel), by instance id. */
  errors: Record<string, string>;
  predictionsJsonl: string;
  /** SWE-bench's run summary (`<model>.<run_id>.json`). */
  summary: SweRunSummary;
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const UNGRADED = new Set(["failed", "cancelled"]);

/** The grade of one finished job, or why there is none. */
function gradeSweJob(job: TJob): { report: SweEvalReport } | { error: string } {
  const result = job.result as Partial<SweEvalReport> | null;
  // A grade the canaries voided is a grade (unresolved, `tampered`), not an error to retry.
  const isGrade =
    job.status === "completed" || (job.status === "failed" && job.failure?.label === "tampered");
  if (isGrade && result && typeof result.resolved === "boolean" && result.testsStatus) {
    return { report: result as SweEvalReport };
  }
  return {
    error: job.failure ? `${job.failure.kind} in ${job.failure.stage}: ${job.failure.message}` : job.status,
  };
}

function outcomes(report: SweEvalReport, key: "FAIL_TO_PASS" | "PASS_TO_PASS"): Record<string, string> {
  const split = report.testsStatus[key];
  return Object.fromEntries([
    ...split.success.map((test) => [test, report.testStatuses[test] ?? "PASSED"]),
    ...split.failure.map((test) => [test, report.testStatuses[test] ?? "MISSING"]),
  ]);
}

/** An instance's outcome as a benchmark-store result; `attempt` counts resumed retries. */
function toSweBenchmarkResult(
  instanceId: string,
  outcome: SweInstanceOutcome,
  jobId: string | null,
  attempt: number,
): SweBenchmarkResult {
  if ("error" in outcome) {
    return {
      instanceId,
      jobId,
      resolved: false,
      failToPass: null,
      passToPass: null,
      detail: { error: outcome.error, attempt },
    };
  }
  const { report } = outcome;
  return {
    instanceId,
    jobId,
    resolved: report.resolved,
    failToPass: outcomes(report, "FAIL_TO_PASS"),
    passToPass: outcomes(report, "PASS_TO_PASS"),
    detail: {
      emptyPatch: report.emptyPatch,
      failedApplyPatch: report.failedApplyPatch,
      testTimeout: report.testTimeout,
      patchApplyMethod: report.patchApplyMethod,
      pythonVersion: report.pythonVersion,
      pytestVersion: report.pytestVersion,
      tampered: report.tampered ?? false,
      reverted: report.reverted ?? [],
      error: null,
      attempt,
    },
  };
}

/** Job key of an instance's `attempt`-th job in a run (the first has no suffix). */
function sweJobKey(runId: string, instanceId: string, attempt: number): string {
  return `swe-eval:${runId}:${instanceId}${attempt > 1 ? `#${attempt}` : ""}`;
}

interface Work {
  instance: TSweInstance;
  /** Grade-only jobs carry the prediction's patch. */
  modelPatch?: string | null;
  attempt: number;
  jobId?: string;
}

function jobRequest(options: RunSweBenchmarkOptions, work: Work): TSubmitJobRequest {
  const { instance } = work;
  const spec = options.specs ? repoSpecFor(instance, options.specs) : {};
  const isGradeOnly = work.modelPatch !== undefined;
  return {
    kind: "swe",
    jobKey: sweJobKey(options.runId, instance.instance_id, work.attempt),
    payload: {
      taskId: instance.instance_id,
      instance,
      ...(Object.keys(spec).length > 0 && { spec }),
      ...(isGradeOnly
        ? { modelPatch: work.modelPatch }
        : options.agent !== undefined && { agent: options.agent }),
    },
    ...(options.timeoutsMs !== undefined && { timeoutsMs: options.timeoutsMs }),
    metadata: { benchmarkRunId: options.runId, model: options.model },
  };
}

/** What to run: every instance (rollouts) or every prediction with a patch (grading). */
function planWork(options: RunSweBenchmarkOptions): { work: Work[]; emptyPredictions: TSwePrediction[] } {
  const byId = new Map<string, TSweInstance>();
  for (const instance of options.instances) {
    if (byId.has(instance.instance_id)) throw new Error(`instance ${instance.instance_id} is listed twice`);
    byId.set(instance.instance_id, instance);
  }
  if (!options.predictions)
    return { work: options.instances.map((instance) => ({ instance, attempt: 1 })), emptyPredictions: [] };
  const unknown = options.predictions.filter((p) => !byId.has(p.instance_id)).map((p) => p.instance_id);
  if (unknown.length > 0)
    throw new Error(`predictions for instances not in the dataset: ${unknown.slice(0, 5).join(", ")}`);
  return {
    work: options.predictions
      .filter((p) => !isEmptyPatch(p.model_patch))
      .map((p) => ({
        instance: byId.get(p.instance_id) as TSweInstance,
        modelPatch: p.model_patch,
        attempt: 1,
      })),
    emptyPredictions: options.predictions.filter((p) => isEmptyPatch(p.model_patch)),
  };
}

/**
 * Submits `batch`; an instance whose existing job (from an earlier invocation of this run) ended
 * ungraded is submitted again under the next attempt's key, up to `maxAttempts`.
 */
async function submitFresh(options: RunSweBenchmarkOptions, batch: Work[]): Promise<void> {
  const maxAttempts = options.maxAttempts ?? 5;
  let pending = batch;
  while (pending.length > 0) {
    const jobs = await options.gateway.submit(pending.map((work) => jobRequest(options, work)));
    const retry: Work[] = [];
    pending.forEach((work, index) => {
      const job = jobs[index] as SweSubmittedJob;
      work.jobId = job.id;
      if (!job.created && UNGRADED.has(job.status) && work.attempt < maxAttempts) {
        work.attempt += 1;
        retry.push(work);
      }
    });
    pending = retry;
  }
}

/**
 * Runs a SWE-bench evaluation through the service: one `swe` job per instance (rollout), or per
 * non-empty prediction (grade only), keyed `swe-eval:<runId>:<instance_id>[#attempt]` so that
 * re-running a run id resumes it, retrying the instances that errored. Returns the reports,
 * store-ready results, predictions JSONL and SWE-bench's run summary.
 */
export async function runSweBenchmark(options: RunSweBenchmarkOptions): Promise<SweBenchmarkOutcome> {
  const { work, emptyPredictions } = planWork(options);
  const chunk = options.submitChunk ?? 200;
  const maxInFlight = Math.max(1, options.maxInFlight ?? Number.POSITIVE_INFINITY);
  const finished = new Map<string, TJob>();
  let submitted = 0;
  while (finished.size < work.length) {
    options.signal?.throwIfAborted();
    const room = Math.min(chunk, maxInFlight - (submitted - finished.size), work.length - submitted);
    if (room > 0) {
      await submitFresh(options, work.slice(submitted, submitted + room));
      submitted += room;
      continue;
    }
    const pending = work
      .slice(0, submitted)
      .map((w) => w.jobId as string)
      .filter((id) => !finished.has(id))
      .slice(0, 1_000);
    for (const job of await options.gateway.wait(pending, options.pollMs ?? 5_000)) {
      if (TERMINAL.has(job.status)) finished.set(job.id, job);
    }
    const jobs = [...finished.values()];
    options.onProgress?.({
      finished: finished.size,
      total: work.length,
      resolved: jobs.filter((job) => job.reward === 1).length,
      failed: jobs.filter((job) => job.status !== "completed").length,
    });
  }
  const reports: SweEvalReport[] = [];
  const results: SweBenchmarkResult[] = [];
  const errors: Record<string, string> = {};
  const graded = new Map<string, SweInstanceOutcome>();
  const patches = new Map<string, string | null | undefined>();
  for (const prediction of emptyPredictions) {
    const instance = options.instances.find((i) => i.instance_id === prediction.instance_id) as TSweInstance;
    const report = buildSweReport({ instance, modelPatch: prediction.model_patch });
    reports.push(report);
    patches.set(instance.instance_id, prediction.model_patch);
    results.push(toSweBenchmarkResult(instance.instance_id, { report }, null, 1));
  }
  for (const item of work) {
    const id = item.instance.instance_id;
    const outcome = gradeSweJob(finished.get(item.jobId as string) as TJob);
    graded.set(id, outcome);
    if ("error" in outcome) errors[id] = outcome.error;
    else reports.push(outcome.report);
    patches.set(id, "report" in outcome ? outcome.report.modelPatch : item.modelPatch);
    results.push(toSweBenchmarkResult(id, outcome, item.jobId ?? null, item.attempt));
  }
  const order = (a: { instanceId: string }, b: { instanceId: string }) =>
    a.instanceId < b.instanceId ? -1 : a.instanceId > b.instanceId ? 1 : 0;
  reports.sort(order);
  results.sort(order);
  return {
    reports,
    results,
    errors,
    predictionsJsonl: formatPredictionsJsonl(options.model, reports),
    summary: buildSweRunSummary({
      datasetIds: options.instances.map((instance) => instance.instance_id),
      predictions: patches,
      outcomes: graded,
    }),
  };
}
