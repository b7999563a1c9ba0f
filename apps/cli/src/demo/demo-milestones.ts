/**
 * When each dashboard page first has demo data, as the demo sees it:
 * - `queues` (Overview): the first jobs are submitted;
 * - `step:<runKey>` (Runs, Trajectories, Backends): a run's first step is handed out — a point on
 *   its reward curve, trajectories to browse, tokens through the backend;
 * - `comparison` (Benchmarks): every benchmark run has stored results to compare.
 */
export type TDemoMilestone = "queues" | "comparison" | `step:${string}`;

export interface DemoMilestonesOptions {
  /** The run keys whose first step is awaited. */
  runKeys: readonly string[];
  /** Whether a benchmark comparison is awaited. */
  hasComparison: boolean;
  /** Milliseconds on a monotonic clock. */
  now: () => number;
}

const seconds = (ms: number) => `${(ms / 1_000).toFixed(1)} s`;

/**
 * Records milestones against the time it was created; `reach` returns the one-line summary the
 * first time every awaited milestone has been reached, null otherwise.
 */
export class DemoMilestones {
  readonly #startMs: number;
  readonly #awaited: ReadonlySet<TDemoMilestone>;
  readonly #reachedMs = new Map<TDemoMilestone, number>();
  #isReported = false;

  constructor(private readonly options: DemoMilestonesOptions) {
    this.#startMs = options.now();
    this.#awaited = new Set<TDemoMilestone>([
      "queues",
      ...options.runKeys.map((key) => `step:${key}` as const),
      ...(options.hasComparison ? (["comparison"] as const) : []),
    ]);
  }

  /** Milliseconds from the start to when `milestone` was first reached, or null. */
  reachedAfterMs(milestone: TDemoMilestone): number | null {
    return this.#reachedMs.get(milestone) ?? null;
  }

  /** Milliseconds from the start until every awaited milestone was reached, or null before. */
  allReachedAfterMs(): number | null {
    const times = [...this.#awaited].map((m) => this.#reachedMs.get(m));
    return times.some((ms) => ms === undefined) ? null : Math.max(...(times as number[]));
  }

  reach(milestone: TDemoMilestone): string | null {
    if (!this.#reachedMs.has(milestone)) this.#reachedMs.set(milestone, this.options.now() - this.#startMs);
    if (this.#isReported || [...this.#awaited].some((m) => !this.#reachedMs.has(m))) return null;
    this.#isReported = true;
    return this.summary();
  }

  /** "first results on every page after 31.0 s (jobs queued 0.2 s, …)". */
  summary(): string {
    const at = (milestone: TDemoMilestone) => seconds(this.#reachedMs.get(milestone) ?? Number.NaN);
    const all = this.allReachedAfterMs() ?? Number.NaN;
    const steps = this.options.runKeys.map((key) => `${key} ${at(`step:${key}`)}`);
    const parts = [
      `jobs queued ${at("queues")}`,
      ...(steps.length > 0 ? [`first step of ${steps.join(", ")}`] : []),
      ...(this.options.hasComparison ? [`benchmark comparison ${at("comparison")}`] : []),
    ];
    return `first results on every page after ${seconds(all)} (${parts.join("; ")})`;
  }
}
