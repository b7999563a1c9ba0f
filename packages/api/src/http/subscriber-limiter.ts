import { requestFailure } from "@raas/shared";

/** Limits of live subscriptions (SSE streams), which each hold a connection and a buffer. */
export interface SubscriberLimits {
  /** Most open subscriptions in total. Default 256. */
  maxSubscribers: number;
  /** Most open subscriptions per token (tokenless readers: per client address). Default 32. */
  maxSubscribersPerToken: number;
  /** What `retry-after` says past a limit, in seconds. Default 5. */
  retryAfterSec: number;
}

const DEFAULT_SUBSCRIBER_LIMITS: SubscriberLimits = {
  maxSubscribers: 256,
  maxSubscribersPerToken: 32,
  retryAfterSec: 5,
};

/**
 * Counts open subscriptions globally and per key. `acquire` either returns the release function
 * of a slot (idempotent: call it when the stream ends, however it ends) or throws `UNAVAILABLE`
 * (503) with `details.retryAfterSec`, naming the limit that was hit.
 */
export class SubscriberLimiter {
  readonly #limits: SubscriberLimits;
  readonly #perKey = new Map<string, number>();
  #total = 0;

  constructor(limits: Partial<SubscriberLimits> = {}) {
    this.#limits = { ...DEFAULT_SUBSCRIBER_LIMITS, ...limits };
  }

  /** Open subscriptions in total. */
  get size(): number {
    return this.#total;
  }

  acquire(key: string, keyLabel: string): () => void {
    const { maxSubscribers, maxSubscribersPerToken, retryAfterSec } = this.#limits;
    const held = this.#perKey.get(key) ?? 0;
    if (this.#total >= maxSubscribers) {
      throw full(
        `the server already serves its limit of ${maxSubscribers} live subscriptions`,
        retryAfterSec,
      );
    }
    if (held >= maxSubscribersPerToken) {
      throw full(
        `${keyLabel} already holds its limit of ${maxSubscribersPerToken} live subscriptions; close one first`,
        retryAfterSec,
      );
    }
    this.#total += 1;
    this.#perKey.set(key, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total -= 1;
      const left = (this.#perKey.get(key) ?? 1) - 1;
      if (left === 0) this.#perKey.delete(key);
      else this.#perKey.set(key, left);
    };
  }
}

function full(message: string, retryAfterSec: number) {
  return requestFailure("UNAVAILABLE", `${message}; retry in ${retryAfterSec} s`, {
    details: { retryAfterSec },
  });
}
