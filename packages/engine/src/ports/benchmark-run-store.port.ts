/** Outcome of each test of a benchmark instance, e.g. `{ "tests/test_x.py::test_y": "PASSED" }`. */
type TestOutcomes = Record<string, string>;

/** Lifecycle of a benchmark run: `running` until its evaluator finishes it. */
export type BenchmarkRunStatus = "running" | "completed" | "failed" | "cancelled";

/** One evaluation of a model on a dataset (e.g. Qwen3-8B on SWE-Bench Verified). */
export interface BenchmarkRunRecord {
  id: string;
  model: string;
  dataset: string;
  split: string | null;
  /** A `BenchmarkRunStatus`; stored as text. */
  status: string;
  config: Record<string, unknown> | null;
  /** Instances with a stored result. */
  totalCount: number;
  /** Stored results with `resolved`. */
  resolvedCount: number;
  /**
   * Stored results whose `detail.reward` is a number (an environment run's graded tasks; SWE-bench
   * results and errors carry none).
   */
  rewardCount: number;
  /** The mean of those rewards; null when there are none. */
  meanReward: number | null;
  createdAtMs: number;
  finishedAtMs: number | null;
}

/** The outcome of one run on one task instance. */
export interface BenchmarkResultRecord {
  runId: string;
  /** The dataset's instance id, e.g. `astropy__astropy-12907`. */
  instanceId: string;
  jobId: string | null;
  resolved: boolean;
  failToPass: TestOutcomes | null;
  passToPass: TestOutcomes | null;
  detail: Record<string, unknown> | null;
  createdAtMs: number;
}

/** A run as its evaluator creates it: the counts start at 0, `finishedAtMs` at null. */
export type NewBenchmarkRun = Omit<
  BenchmarkRunRecord,
  "totalCount" | "resolvedCount" | "rewardCount" | "meanReward" | "finishedAtMs"
>;

/** A result as recorded for a run (the run id is the call's). */
export type NewBenchmarkResult = Omit<BenchmarkResultRecord, "runId">;

/** Which runs `listRuns` returns; an omitted field matches every run. */
export interface BenchmarkRunFilter {
  model?: string;
  dataset?: string;
}

/**
 * Benchmark runs and their per-instance results (SWE-bench evaluations). Adapters: in-memory
 * (tests, `RAAS_STORE=memory`) and Prisma (PGlite or PostgreSQL). Low volume: a run has at most a
 * few thousand results.
 */
export interface BenchmarkRunStore {
  /** Stores a new run. The id must be new: an adapter rejects (throws) a duplicate id. */
  createRun(run: NewBenchmarkRun): Promise<void>;
  /**
   * Stores results of an existing run (a result already stored for an instance is replaced) and
   * refreshes the run's total and resolved counts and its mean reward. Instance ids are unique
   * within one call.
   */
  recordResults(runId: string, results: readonly NewBenchmarkResult[]): Promise<void>;
  /** Sets the status and finish time of an existing run. */
  finishRun(runId: string, status: string, finishedAtMs: number): Promise<void>;
  getRun(runId: string): Promise<BenchmarkRunRecord | null>;
  /** Newest first (ties by id, descending). */
  listRuns(filter?: BenchmarkRunFilter): Promise<BenchmarkRunRecord[]>;
  /** Every result of a run, ordered by instance id; empty for an unknown run. */
  listResults(runId: string): Promise<BenchmarkResultRecord[]>;
}
