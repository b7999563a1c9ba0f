import { describe, expect, it } from "vitest";
import { ManualClock } from "../testing/manual-clock";
import { StoreHealth } from "./store-health";
import { backoffDelayMs, retryWhileUnreachable } from "./store-retry";

const refused = () => Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });

describe("backoffDelayMs", () => {
  it("doubles from the first delay up to the cap, jitter scaling it into [0.5, 1)", () => {
    const top = () => 0.999_999;
    const options = { initialDelayMs: 100, maxDelayMs: 1_000 };
    expect([1, 2, 3, 4, 5, 50].map((attempt) => backoffDelayMs(attempt, options, top))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
    expect(backoffDelayMs(3, options, () => 0)).toBe(200);
  });
});

describe("retryWhileUnreachable", () => {
  it("waits out an outage with back-off and returns the value once the store answers", async () => {
    const clock = new ManualClock(0);
    const health = new StoreHealth({ clock });
    let calls = 0;
    const attempts: number[] = [];
    const result = retryWhileUnreachable(
      async () => {
        calls += 1;
        if (calls <= 3) throw refused();
        return "stored";
      },
      {
        health,
        clock,
        random: () => 0.999_999,
        backoff: { initialDelayMs: 100, maxDelayMs: 1_000 },
        onRetry: ({ delayMs }) => attempts.push(delayMs),
      },
    );
    await clock.advance(0);
    expect(calls).toBe(1);
    expect(health.isAvailable).toBe(false);
    await clock.advance(99);
    expect(calls).toBe(1);
    await clock.advance(1);
    expect(calls).toBe(2);
    await clock.advance(200 + 400);
    expect(await result).toBe("stored");
    expect(calls).toBe(4);
    expect(attempts).toEqual([100, 200, 400]);
    expect(health.isAvailable).toBe(true);
  });

  it("throws an error that is not an outage at once, unless asked to retry every error", async () => {
    const clock = new ManualClock(0);
    const bad = new Error("column does not exist");
    await expect(retryWhileUnreachable(() => Promise.reject(bad), { clock })).rejects.toBe(bad);

    let calls = 0;
    const result = retryWhileUnreachable(
      async () => {
        calls += 1;
        if (calls === 1) throw bad;
        return calls;
      },
      { clock, retryEveryError: true },
    );
    await clock.advance(0);
    await clock.advance(5_000);
    expect(await result).toBe(2);
  });

  it("stops when its signal aborts, with the last error", async () => {
    const clock = new ManualClock(0);
    const controller = new AbortController();
    const result = retryWhileUnreachable(() => Promise.reject(refused()), {
      clock,
      signal: controller.signal,
    });
    const settled = result.catch((error: unknown) => error);
    await clock.advance(0);
    await clock.advance(1_000);
    controller.abort();
    expect(await settled).toMatchObject({ code: "ECONNREFUSED" });
  });
});
