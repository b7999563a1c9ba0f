/** Outcome of each test of a benchmark instance, e.g. `{ "tests/test_x.py::test_y": "PASSED" }`. */
export type TestOutcomes = Record<string, string>;

/** One evaluation of a model on a dataset (e.g. Qwen3-8B on SWE-Bench Verified). */
export interface BenchmarkRunRecord {
  id: string;
  model: string;
  dataset: string;
  split: string | null;
  /** running | completed | failed | cancelled */
  status: string;
  config: Record<string, unknown> | null;
  totalCount: number;
  resolvedCount: number;
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
