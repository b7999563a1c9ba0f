/** What the benchmark pages read of a run to tell an environment run from a SWE-bench one. */
interface TRunWithConfig {
  config: Record<string, unknown> | null;
}

/** The environment a run evaluated on (`config.environment`, as `benchmarks.createRun` stores it). */
export interface TRunEnvironment {
  name: string;
  /** `harbor`, `reward-fn`, `judge`, … */
  kind: string;
}

/**
 * The environment of a run made by `raas eval env` (or `createRun { environment }`), or null for
 * a SWE-bench run (no `config.environment`).
 */
export function runEnvironment(run: TRunWithConfig): TRunEnvironment | null {
  const value = run.config?.environment;
  if (typeof value !== "object" || value === null) return null;
  const { name, kind } = value as Record<string, unknown>;
  if (typeof name !== "string" || typeof kind !== "string") return null;
  return { name, kind };
}

/**
 * Whether SWE-bench's own material (the published reference figures, the `raas eval swe` hint)
 * belongs beside these runs: some run is a SWE-bench run, or there is no run yet to say otherwise.
 */
export function showsSweBench(runs: readonly TRunWithConfig[]): boolean {
  return runs.length === 0 || runs.some((run) => runEnvironment(run) === null);
}

/** A mean reward to three decimals, trailing zeros dropped (`0.667`, `1`); an em dash for none. */
export function formatReward(reward: number | null): string {
  return reward === null ? "—" : String(Number(reward.toFixed(3)));
}
