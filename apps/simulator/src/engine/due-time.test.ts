import { describe, expect, it } from "vitest";
import { sleepUntil } from "./due-time";

describe("sleepUntil", () => {
  it("never resolves before the due time (a timer alone fires up to a millisecond early on this clock)", async () => {
    for (let i = 0; i < 20; i += 1) {
      const dueAtMs = performance.now() + 2.5;
      await sleepUntil(dueAtMs);
      // wall-clock-ok: pacing on the real clock is what sleepUntil is for; "never early" holds under load.
      expect(performance.now()).toBeGreaterThanOrEqual(dueAtMs);
    }
  });

  it("resolves at once when the time has passed, and rejects with the reason on abort", async () => {
    await sleepUntil(performance.now() - 5);
    const abort = new AbortController();
    const waiting = sleepUntil(performance.now() + 10_000, abort.signal);
    abort.abort(new Error("client left"));
    await expect(waiting).rejects.toThrow("client left");
    await expect(sleepUntil(performance.now() - 5, abort.signal)).rejects.toThrow("client left");
  });
});
