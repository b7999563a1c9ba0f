/**
 * A fixed number of batch slots, like a GPU engine's max concurrent sequences: a request holds a
 * slot while it runs; the rest wait in FIFO order.
 */
export class BatchSlots {
  private running = 0;
  private readonly waiting: { grant: () => void; signal: AbortSignal | undefined; onAbort: () => void }[] =
    [];

  constructor(readonly maxConcurrency: number) {}

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
      this.running += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const entry = {
        signal,
        grant: () => {
          signal?.removeEventListener("abort", entry.onAbort);
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

  private releaser(): () => void {
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      this.running -= 1;
      this.waiting.shift()?.grant();
    };
  }
}
