/** Time source, injectable so tests can control time. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` after `delayMs`; the returned function cancels it. */
  setTimer(fn: () => void, delayMs: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, delayMs) {
    const handle = setTimeout(fn, delayMs);
    // Engine timers (leases, stage budgets) must never keep a finished process alive.
    handle.unref();
    return () => clearTimeout(handle);
  },
};
