import { isTerminalStatus, type TJob, type TSubmitJobRequest } from "@raas/shared";
import {
  type EnvironmentTaskGrade,
  gradeEnvironmentJob,
  isResolvedReward,
} from "./environment-benchmark-grade";
import type { EnvironmentTask, LoadedEnvironment } from "./environment-source";

/** How an environment benchmark reaches the service (the CLI's tRPC client; an engine in-process). */
interface EnvironmentJobGateway {
  /** Submits jobs, in order (an existing job key returns the existing job with `created: false`). */
  submit(
    requests: readonly TSubmitJobRequest[],
  ): Promise<Array<{ id: string; created: boolean; status: TJob["status"] }>>;
  /** Current state of the jobs, after waiting up to `timeoutMs` for any of them to finish. */
  wait(ids: readonly string[], timeoutMs: number): Promise<TJob[]>;
}

/** One task's outcome in the benchmark store's shape (`benchmarks.recordResults`). */
export interface EnvironmentBenchmarkResult {
  instanceId: string;
  jobId: string | null;
  /** Reward ≥ 1; false for an error too (its `detail.error` says it is one). */
  resolved: boolean;
  failToPass: null;
  passToPass: null;
  /**
   * `reward` (null for an error), `jobId`, `error` (why no reward, or null), `failure` (the
   * policy's own failure, graded), `attempt` (resumed retries).
   */
  detail: {
    reward: number | null;
    jobId: string | null;
    error: string | null;
    failure: string | null;
    attempt: number;
  };
}

export interface RunEnvironmentBenchmarkOptions {
  environment: Pick<LoadedEnvironment, "name" | "tasks" | "oracleMinReward">;
  /** Run id: part of every job key, so re-running the same id resumes instead of resubmitting. */
  runId: string;
  /** Model label, stored in each job's metadata. */
  model: string;
  gateway: EnvironmentJobGateway;
  /** Unfinished jobs at most; more are submitted as earlier ones finish. Default 8. */
  maxInFlight?: number;
  /** Attempts per task over all resumes of a run (an errored job is retried on resume). Default 3. */
  maxAttempts?: number;
  /** Long-poll window per wait call in ms. Default 5_000. */
  pollMs?: number;
  /** Called after every poll. */
  onProgress?(progress: { finished: number; total: number; resolved: number; errors: number }): void;
  signal?: AbortSignal;
}

export interface EnvironmentBenchmarkOutcome {
  /** One per task, ordered by task id. */
  results: EnvironmentBenchmarkResult[];
  /** Why each errored task earned no reward, by task id. */
  errors: Record<string, string>;
}

interface Work {
  task: EnvironmentTask;
  attempt: number;
  jobId?: string;
}

function jobKey(runId: string, taskId: string, attempt: number): string {
  return `env-eval:${runId}:${taskId}${attempt > 1 ? `#${attempt}` : ""}`;
}

function jobRequest(options: RunEnvironmentBenchmarkOptions, work: Work): TSubmitJobRequest {
  const { request } = work.task;
  return {
    kind: request.kind,
    jobKey: jobKey(options.runId, work.task.id, work.attempt),
    payload: request.payload,
    ...(Object.keys(request.timeoutsMs).length > 0 && {
      timeoutsMs: request.timeoutsMs as TSubmitJobRequest["timeoutsMs"],
    }),
    metadata: {
      benchmarkRunId: options.runId,
      model: options.model,
      environment: options.environment.name,
    },
  };
}

/**
 * Submits `batch`; a task whose job from an earlier invocation of this run ended without a reward
 * is submitted again under the next attempt's key, up to `maxAttempts`.
 */
async function submitFresh(options: RunEnvironmentBenchmarkOptions, batch: Work[]): Promise<void> {
  const maxAttempts = options.maxAttempts ?? 3;
  let pending = batch;
  while (pending.length > 0) {
    const submitted = await options.gateway.submit(pending.map((work) => jobRequest(options, work)));
    // A completed job is graded; a failed one may be the policy's (graded) or not: read it.
    const ended = submitted
      .filter((job) => !job.created && (job.status === "failed" || job.status === "cancelled"))
      .map((job) => job.id);
    const earlier = ended.length > 0 ? await options.gateway.wait(ended, 0) : [];
    const retry: Work[] = [];
    pending.forEach((work, index) => {
      const job = submitted[index];
      if (!job) throw new Error(`the server answered ${submitted.length} jobs for ${pending.length}`);
      work.jobId = job.id;
      const stored = earlier.find((candidate) => candidate.id === job.id);
      const isErrored = stored !== undefined && "error" in gradeFinished(stored);
      if (isErrored && work.attempt < maxAttempts) {
        work.attempt += 1;
        retry.push(work);
      }
    });
    pending = retry;
  }
}

function gradeFinished(job: TJob): EnvironmentTaskGrade {
  return isTerminalStatus(job.status) ? gradeEnvironmentJob(job) : { error: `still ${job.status}` };
}

function toResult(
  task: EnvironmentTask,
  jobId: string | null,
  attempt: number,
  grade: EnvironmentTaskGrade,
  least: number,
) {
  const isError = "error" in grade;
  return {
    instanceId: task.id,
    jobId,
    resolved: !isError && isResolvedReward(grade.reward, least),
    failToPass: null,
    passToPass: null,
    detail: {
      reward: isError ? null : grade.reward,
      jobId,
      error: isError ? grade.error : null,
      failure: isError ? null : grade.failure,
      attempt,
    },
  } satisfies EnvironmentBenchmarkResult;
}

/**
 * Rolls an environment's tasks out as a benchmark: one job per task (the request its loader
 * builds, keyed `env-eval:<runId>:<task id>[#attempt]` so that re-running a run id resumes it and
 * retries what errored), waits for them, and grades each (`gradeEnvironmentJob`). A task that
 * cannot run here (it needs an image) is an error without a job.
 */
export async function runEnvironmentBenchmark(
  options: RunEnvironmentBenchmarkOptions,
): Promise<EnvironmentBenchmarkOutcome> {
  const runnable = options.environment.tasks.filter((task) => task.incompatibility === null);
  // What resolves a task: full marks, or a judge environment's pass threshold.
  const least = options.environment.oracleMinReward;
  const work: Work[] = runnable.map((task) => ({ task, attempt: 1 }));
  const maxInFlight = Math.max(1, options.maxInFlight ?? 8);
  const finished = new Map<string, TJob>();
  let submitted = 0;
  const report = () => {
    const grades = [...finished.values()].map(gradeEnvironmentJob);
    options.onProgress?.({
      finished: finished.size,
      total: work.length,
      resolved: grades.filter((grade) => "reward" in grade && isResolvedReward(grade.reward, least)).length,
      errors: grades.filter((grade) => "error" in grade).length,
    });
  };
  report();
  while (finished.size < work.length) {
    options.signal?.throwIfAborted();
    const room = Math.min(maxInFlight - (submitted - finished.size), work.length - submitted);
    if (room > 0) {
      await submitFresh(options, work.slice(submitted, submitted + room));
      submitted += room;
      continue;
    }
    const pending = work
      .slice(0, submitted)
      .map((w) => w.jobId as string)
      .filter((id) => !finished.has(id));
    for (const job of await options.gateway.wait(pending, options.pollMs ?? 5_000)) {
      if (isTerminalStatus(job.status)) finished.set(job.id, job);
    }
    report();
  }
  const results = [
    ...work.map((item) =>
      toResult(
        item.task,
        item.jobId ?? null,
        item.attempt,
        gradeFinished(finished.get(item.jobId as string) as TJob),
        least,
      ),
    ),
    ...options.environment.tasks
      .filter((task) => task.incompatibility !== null)
      .map((task) => toResult(task, null, 0, { error: `cannot run here: ${task.incompatibility}` }, least)),
  ].sort((a, b) => (a.instanceId < b.instanceId ? -1 : a.instanceId > b.instanceId ? 1 : 0));
  const errors = Object.fromEntries(
    results.flatMap((result) =>
      result.detail.error === null ? [] : [[result.instanceId, result.detail.error]],
    ),
  );
  return { results, errors };
}
