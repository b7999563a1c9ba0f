import type { Clock } from "../ports/clock.port";

/** Why an engine-controlled AbortSignal fired. */
/** `preempted`: higher-priority work needs the slot; the job goes back to its queue (not a failure). */
export type AbortCause = "cancelled" | "timeout" | "shutdown" | "preempted";

export class EngineAbort extends Error {
  override readonly name = "EngineAbort";
  override readonly cause: AbortCause;
  constructor(cause: AbortCause, message: string) {
    super(message);
    this.cause = cause;
  }
}

/** The engine's abort cause of a signal, or null if it fired for another reason (or not at all). */
export function abortCauseOf(signal: AbortSignal): AbortCause | null {
  if (!signal.aborted) return null;
  const reason: unknown = signal.reason;
  return reason instanceof EngineAbort ? reason.cause : null;
}

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
