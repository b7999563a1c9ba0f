import type { Clock } from "../ports/clock.port";

/**
 * Resolves after `delayMs` (at once when it is 0 or less), or rejects with the signal's reason
 * when it aborts first. Waits on `clock` when given (tests move a manual one), else on a plain
 * timer that keeps the process alive while it waits.
 */
export function sleep(delayMs: number, signal?: AbortSignal, clock?: Clock): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (delayMs <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      cancel();
      reject(signal?.reason);
    };
    const done = () => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    };
    const cancel = clock ? clock.setTimer(done, delayMs) : cancelOnClear(setTimeout(done, delayMs));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const cancelOnClear = (timer: ReturnType<typeof setTimeout>) => () => clearTimeout(timer);

/** Resolves when `signal` aborts (never rejects). */
export function whenAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
