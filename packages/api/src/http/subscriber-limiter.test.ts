import type { FailureError, RequestFailureData } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { SubscriberLimiter } from "./subscriber-limiter";

const refusal = (run: () => unknown): FailureError<RequestFailureData> => {
  try {
    run();
  } catch (error) {
    return error as FailureError<RequestFailureData>;
  }
  throw new Error("expected a refusal");
};

describe("SubscriberLimiter", () => {
  it("refuses past the per-key and the global cap, and a release (once) frees exactly one slot", () => {
    const limiter = new SubscriberLimiter({ maxSubscribers: 3, maxSubscribersPerToken: 2, retryAfterSec: 7 });
    const a1 = limiter.acquire("a", "token a");
    limiter.acquire("a", "token a");
    const perKey = refusal(() => limiter.acquire("a", "token a"));
    expect(perKey.failure.code).toBe("UNAVAILABLE");
    expect(perKey.message).toBe(
      "token a already holds its limit of 2 live subscriptions; close one first; retry in 7 s",
    );
    expect(perKey.failure.details).toEqual({ retryAfterSec: 7 });
    limiter.acquire("b", "token b");
    expect(refusal(() => limiter.acquire("c", "token c")).message).toContain(
      "its limit of 3 live subscriptions",
    );
    a1();
    a1();
    expect(limiter.size).toBe(2);
    limiter.acquire("c", "token c");
    expect(refusal(() => limiter.acquire("a", "token a")).failure.code).toBe("UNAVAILABLE");
  });
});
