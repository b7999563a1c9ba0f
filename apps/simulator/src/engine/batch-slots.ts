/** How busy the slots have been since they were made, in seconds of the given clock. */
export interface SlotOccupancy {
  /** Time with at least one request running. */
  busySeconds: number;
  /** Integral of requests running over time (slot-seconds): divided by elapsed time, the mean running. */
  slotSeconds: number;
}

/**
 * A fixed number of batch slots, like a GPU engine's max concurrent sequences: a request holds a
 * slot while it runs; the rest wait in FIFO order. It integrates its occupancy over time exactly
 * (at every change), so its own report needs no sampling.
 */
export class BatchSlots {
  private running = 0;
  private busyMs = 0;
  private slotMs = 0;
  private changedAtMs: number;
  private readonly waiting: { grant: () => void; signal: AbortSignal | undefined; onAbort: () => void }[] =
    [];

  /** @param now clock in ms; default `performance.now`. */
  constructor(
    readonly maxConcurrency: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.changedAtMs = now();
  }

  /** Occupancy integrated up to now. */
  occupancy(): SlotOccupancy {
    this.accrue();
    return { busySeconds: this.busyMs / 1_000, slotSeconds: this.slotMs / 1_000 };
  }

  get runningCount(): number {
    return this.running;
  }

  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.running < this.maxConcurrency) {
      this.accrue();
      this.running += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const entry = {
        signal,
        grant: () => {
          signal?.removeEventListener("abort", entry.onAbort);
          this.accrue();
          this.running += 1;
          resolve(this.releaser());
        },
        onAbort: () => {
          const index = this.waiting.indexOf(entry);
          if (index !== -1) this.waiting.splice(index, 1);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener("abort", entry.onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  /** Adds the time since the last change at the running count that held over it. */
  private accrue(): void {
    const nowMs = this.now();
    const elapsedMs = Math.max(0, nowMs - this.changedAtMs);
    if (this.running > 0) this.busyMs += elapsedMs;
    this.slotMs += this.running * elapsedMs;
    this.changedAtMs = nowMs;
  }

  private releaser(): () => void {
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      this.accrue();
      this.running -= 1;
      this.waiting.shift()?.grant();
    };
  }
}
