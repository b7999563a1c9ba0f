import { describe, expect, it } from "vitest";
import { ManualClock } from "../testing";
import type { RequestOutcome } from "./routing.types";
import { StickyRouter } from "./sticky-router";

const ok: RequestOutcome = {
  type: "success",
  promptTokens: 10,
  cachedPromptTokens: 0,
  responseTokens: 10,
  latencyMs: 5,
};

function registered(clock: ManualClock): StickyRouter {
  const router = new StickyRouter({ statsWindowMs: 10_000 });
  router.registerBackend({ id: "a", modelName: "m", weightVersion: null, maxConcurrency: 4 }, clock.now());
  return router;
}

describe("StickyRouter utilisation", () => {
  it("computes a silent backend's busy fraction from its own in-flight count", async () => {
    const clock = new ManualClock();
    const router = registered(clock);
    await clock.advance(4_000);
    router.acquire("j1", clock.now());
    router.acquire("j2", clock.now());
    await clock.advance(5_000);
    router.release("a", ok, clock.now());
    router.release("a", ok, clock.now());
    await clock.advance(1_000);
    expect(router.getBackend("a", clock.now())?.utilisation).toMatchObject({
      source: "in-flight",
      busyFraction: 0.5,
      meanRunning: 1,
      slotUtilisation: 0.25,
    });
  });

  it("switches to the backend's reported running gauge once it reports one", async () => {
    const clock = new ManualClock();
    const router = registered(clock);
    const engine = { engine: "0", prefixCacheQueries: 0, prefixCacheHits: 0, kvCacheUsage: null, waiting: 0 };
    router.recordBackendCounters(
      "a",
      { prefixCacheQueries: 0, prefixCacheHits: 0, engines: [{ ...engine, running: 4 }] },
      clock.now(),
    );
    await clock.advance(2_000);
    router.recordBackendCounters(
      "a",
      { prefixCacheQueries: 0, prefixCacheHits: 0, engines: [{ ...engine, running: 0 }] },
      clock.now(),
    );
    await clock.advance(2_000);
    expect(router.getBackend("a", clock.now())?.utilisation).toMatchObject({
      source: "reported",
      busyFraction: 0.5,
      slotUtilisation: 0.5,
      windowMs: 10_000,
    });
  });
});
