/** Weight of the newest sample in the moving average. */
const SMOOTHING = 0.2;

/**
 * A backend's speed as the router sees it: a moving average of milliseconds per generated token
 * over its successful requests (queueing at the backend included — a backend that is slow because
 * it is overloaded looks slow too, which is what routing wants to know). Pure bookkeeping.
 */
export class BackendSpeed {
  private msPerToken: number | null = null;

  record(latencyMs: number, responseTokens: number): void {
    if (!(latencyMs >= 0) || responseTokens <= 0) return;
    const sample = latencyMs / responseTokens;
    this.msPerToken =
      this.msPerToken === null ? sample : this.msPerToken + SMOOTHING * (sample - this.msPerToken);
  }

  /** Null until the first successful request. */
  get value(): number | null {
    return this.msPerToken;
  }
}

/**
 * How many times slower than the fastest measured backend each one is (1 for the fastest and for
 * backends not measured yet, so that a new backend gets traffic and a measurement).
 */
export function slownessFactors<T extends { readonly id: string; readonly speed: BackendSpeed }>(
  entries: readonly T[],
): Map<string, number> {
  let fastest = Number.POSITIVE_INFINITY;
  for (const entry of entries) {
    const value = entry.speed.value;
    if (value !== null && value > 0) fastest = Math.min(fastest, value);
  }
  const factors = new Map<string, number>();
  for (const entry of entries) {
    const value = entry.speed.value;
    factors.set(entry.id, value === null || !Number.isFinite(fastest) ? 1 : Math.max(1, value / fastest));
  }
  return factors;
}
