import { type Clock, systemClock } from "../ports/clock.port";
import { isNetworkError } from "./network-error";
import type { StoreHealth } from "./store-health";

/** How long to wait between attempts: doubling from `initialDelayMs` up to `maxDelayMs`. */
export interface BackoffOptions {
  /** Wait before the second attempt, in ms. Default 250. */
  initialDelayMs?: number;
  /** Longest wait between attempts, in ms. Default 5_000: a store that is back is used within 5 s. */
  maxDelayMs?: number;
}

export const DEFAULT_STORE_BACKOFF: Required<BackoffOptions> = { initialDelayMs: 250, maxDelayMs: 5_000 };

/**
 * The wait after failed attempt `attempt` (1, 2, …): `initialDelayMs · 2^(attempt-1)` capped at
 * `maxDelayMs`, scaled by a jitter factor in [0.5, 1) from `random` so that the processes cut off
 * by one outage do not all come back in the same millisecond.
 */
export function backoffDelayMs(
  attempt: number,
  options: BackoffOptions = {},
  random: () => number = Math.random,
): number {
  const { initialDelayMs, maxDelayMs } = { ...DEFAULT_STORE_BACKOFF, ...options };
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  const base = Math.min(initialDelayMs * 2 ** exponent, maxDelayMs);
  return Math.round(base * (0.5 + 0.5 * random()));
}

export interface StoreRetryOptions {
  /** Told of each failure (and each success); decides which errors are connection failures. */
  health?: StoreHealth;
  clock?: Clock;
  backoff?: BackoffOptions;
  /** Jitter source (tests pass a constant). Default `Math.random`. */
  random?: () => number;
  /**
   * Retry every error, not only connection failures. For writes that must not be dropped (the
   * job store's group commit): a statement that fails for another reason is retried with the same
   * back-off and logged by `onRetry`. Default false: other errors are thrown at once.
   */
  retryEveryError?: boolean;
  /** Stops retrying: the last error is thrown. */
  signal?: AbortSignal;
  /** Called before each wait (to log it). `isOutage`: the failure was a connection failure. */
  onRetry?: (event: { error: unknown; attempt: number; delayMs: number; isOutage: boolean }) => void;
}

/**
 * Runs `operation` until it succeeds, waiting with back-off between attempts while the store is
 * unreachable: an outage (a restart, a failover) is waited out instead of failing the caller.
 * Errors that are not connection failures are thrown at once unless `retryEveryError`.
 */
export async function retryWhileUnreachable<T>(
  operation: () => Promise<T>,
  options: StoreRetryOptions = {},
): Promise<T> {
  const clock = options.clock ?? systemClock;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const value = await operation();
      options.health?.reportReachable();
      return value;
    } catch (error) {
      const isOutage = options.health ? options.health.reportFailure(error) : isNetworkError(error);
      if ((!isOutage && !options.retryEveryError) || options.signal?.aborted) throw error;
      const delayMs = backoffDelayMs(attempt, options.backoff, options.random);
      options.onRetry?.({ error, attempt, delayMs, isOutage });
      await wait(clock, delayMs, options.signal);
      if (options.signal?.aborted) throw error;
    }
  }
}

function wait(clock: Clock, delayMs: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const cancel = clock.setTimer(done, delayMs);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      cancel();
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
