import { sleep } from "@raas/engine";

/**
 * Resolves once `performance.now()` reaches `dueAtMs`, never before (at once when it has); rejects
 * with the signal's reason on abort. A timer alone may fire early on that clock: Node's timers
 * count from a whole-millisecond clock, so one fires up to a millisecond (more under load) before
 * a fractional due time. The simulator's waits all end this way, streamed or not, so every arm of
 * a comparison pays the same decode time.
 */
export async function sleepUntil(dueAtMs: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw signal.reason;
  for (let left = dueAtMs - performance.now(); left > 0; left = dueAtMs - performance.now()) {
    await sleep(left, signal);
  }
}
