import type { Clock } from "../ports/clock.port";

/** A clock tests move by hand: `advance(ms)` fires the timers that fall due, in time order. */
export class ManualClock implements Clock {
  #now: number;
  #nextId = 0;
  readonly #timers = new Map<number, { atMs: number; fn: () => void }>();

  constructor(startMs = 1_000_000) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimer(fn: () => void, delayMs: number): () => void {
    const id = this.#nextId++;
    this.#timers.set(id, { atMs: this.#now + delayMs, fn });
    return () => this.#timers.delete(id);
  }

  /** Timers waiting to fire. */
  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** Moves time forward, firing due timers, and lets the promise callbacks they started settle. */
  async advance(ms: number): Promise<void> {
    const until = this.#now + ms;
    for (;;) {
      const due = [...this.#timers.entries()]
        .filter(([, timer]) => timer.atMs <= until)
        .sort((a, b) => a[1].atMs - b[1].atMs || a[0] - b[0])[0];
      if (!due) break;
      const [id, timer] = due;
      this.#timers.delete(id);
      this.#now = Math.max(this.#now, timer.atMs);
      timer.fn();
      await settle();
    }
    this.#now = until;
    await settle();
  }
}

/** Lets queued promise callbacks and immediate I/O callbacks run. */
async function settle(): Promise<void> {
  for (let round = 0; round < 5; round++) await new Promise<void>((resolve) => setImmediate(resolve));
}
