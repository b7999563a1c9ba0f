import { requestFailure } from "@raas/shared";

/**
 * A bounded FIFO between a push-based listener and a pull-based async generator. When the
 * reader falls more than `maxBuffered` items behind, the stream ends with `TOO_MANY_REQUESTS`
 * rather than growing without bound or silently dropping events.
 */
export class EventBuffer<T> {
  readonly #items: T[] = [];
  readonly #maxBuffered: number;
  #head = 0;
  #wake: (() => void) | null = null;
  #overflowed = false;
  #closed = false;

  constructor(maxBuffered: number) {
    this.#maxBuffered = maxBuffered;
  }

  push(item: T): void {
    if (this.#closed || this.#overflowed) return;
    if (this.#items.length - this.#head >= this.#maxBuffered) this.#overflowed = true;
    else this.#items.push(item);
    this.#notify();
  }

  close(): void {
    this.#closed = true;
    this.#notify();
  }

  /** Yields items until `close()` or `signal` aborts. */
  async *drain(signal?: AbortSignal): AsyncGenerator<T, void, unknown> {
    const onAbort = () => this.close();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      while (true) {
        if (this.#head < this.#items.length) {
          const item = this.#items[this.#head]!;
          this.#head += 1;
          if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
            this.#items.splice(0, this.#head);
            this.#head = 0;
          }
          yield item;
          continue;
        }
        if (this.#overflowed) {
          throw requestFailure(
            "TOO_MANY_REQUESTS",
            `the event stream fell more than ${this.#maxBuffered} events behind; reconnect and narrow the filter`,
          );
        }
        if (this.#closed || signal?.aborted) return;
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }
}
