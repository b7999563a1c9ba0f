/** One row of a benchmark's table: a method/variant and its measured figures. */
export interface BenchRow {
  name: string;
  [metric: string]: string | number | boolean | null;
}

export interface BenchReport {
  bench: string;
  /** One-line description of what was measured and how. */
  description: string;
  rows: BenchRow[];
  /** Headline figures: ratios against the baseline of the same run, targets met or not. */
  summary: Record<string, string | number | boolean | null>;
  config: Record<string, unknown>;
  /** Exit code for `npm run bench` after the results are written (default 0; `targets` sets 1 on a miss). */
  exitCode?: number;
}

export interface Bench {
  name: string;
  description: string;
  run(args: string[]): Promise<BenchReport>;
}
