import { describe, expect, it } from "vitest";
import type { RequestOutcome } from "./routing.types";
import { StickyRouter } from "./sticky-router";

const ok: RequestOutcome = {
  type: "success",
  promptTokens: 100,
  cachedPromptTokens: 80,
  responseTokens: 10,
  latencyMs: 5,
};

function routerWith(
  ids: string[],
  options: ConstructorParameters<typeof StickyRouter>[0] = {},
): StickyRouter {
  const router = new StickyRouter(options);
  for (const id of ids)
    router.registerBackend({ id, modelName: "qwen3", weightVersion: "v1", maxConcurrency: 8 }, 0);
  return router;
}

function inFlightOf(router: StickyRouter): Record<string, number> {
  return Object.fromEntries(router.listBackends(0).map((b) => [b.id, b.inFlight]));
}

describe("StickyRouter", () => {
  it("keeps a job on the same backend for every turn", () => {
    const router = routerWith(["a", "b", "c"]);
    const first = router.acquire("job-1", 0);
    expect(first?.reason).toBe("new-job");
    for (let turn = 0; turn < 5; turn += 1) {
      router.release(first!.backendId, ok, 0);
      const next = router.acquire("job-1", 0);
      expect(next).toEqual({ backendId: first!.backendId, reason: "sticky", previousBackendId: null });
    }
  });

  it("places new jobs on the least-loaded backend and decrements on completion and error", () => {
    const router = routerWith(["a", "b", "c"]);
    const placed = ["j1", "j2", "j3"].map((job) => router.acquire(job, 0)!.backendId);
    expect(new Set(placed).size).toBe(3);
    router.release(placed[0]!, ok, 0);
    router.release(placed[1]!, { type: "failure" }, 0);
    expect(inFlightOf(router)).toEqual({ [placed[0]!]: 0, [placed[1]!]: 0, [placed[2]!]: 1 });
    const fourth = router.acquire("j4", 0)!;
    expect(fourth.backendId).not.toBe(placed[2]);
  });

  it("moves a sticky job when its backend exceeds the least-loaded one by more than the margin", () => {
    const router = routerWith(["a", "b"], { overloadMargin: 3 });
    router.drainBackend("b", 0);
    for (const job of ["x1", "x2", "x3"]) router.acquire(job, 0);
    router.resumeBackend("b", 0);
    const sticky = router.acquire("x1", 0)!;
    expect(sticky).toMatchObject({ backendId: "a", reason: "sticky" });
    // a now has 4 in flight, b has 0: 4 - 0 > 3
    const moved = router.acquire("x2", 0)!;
    expect(moved).toEqual({ backendId: "b", reason: "moved-overloaded", previousBackendId: "a" });
    expect(router.stickyBackendOf("x2")).toBe("b");
    expect(router.listBackends(0).map((b) => b.stickyJobs)).toEqual([2, 1]);
  });

  it("drains: in-flight work finishes, no new jobs, sticky jobs move", () => {
    const router = routerWith(["a", "b"]);
    const decision = router.acquire("job", 0)!;
    const other = decision.backendId === "a" ? "b" : "a";
    expect(router.drainBackend(decision.backendId, 0).lifecycle).toBe("draining");
    for (const job of ["n1", "n2", "n3"]) {
      const placed = router.acquire(job, 0)!;
      expect(placed.backendId).toBe(other);
      router.release(placed.backendId, ok, 0);
    }
    router.release(decision.backendId, ok, 0);
    expect(router.getBackend(decision.backendId, 0)?.lifecycle).toBe("drained");
    expect(router.acquire("job", 0)).toEqual({
      backendId: other,
      reason: "moved-unavailable",
      previousBackendId: decision.backendId,
    });
  });

  it("removes a backend at run time and fails over its jobs; late releases are ignored", () => {
    const router = routerWith(["a", "b"]);
    const decision = router.acquire("job", 0)!;
    router.removeBackend(decision.backendId, 0);
    router.release(decision.backendId, ok, 0);
    expect(router.listBackends(0).map((b) => b.id)).toEqual([decision.backendId === "a" ? "b" : "a"]);
    expect(router.acquire("job", 0)?.reason).toBe("moved-unavailable");
    expect(() => router.removeBackend("nope", 0)).toThrow(/No backend with id nope/);
  });

  it("returns null when no backend can take traffic", () => {
    const router = routerWith(["a"]);
    router.drainBackend("a", 0);
    expect(router.acquire("job", 0)).toBeNull();
  });

  it("honours exclusions (connection failover) and re-sticks the job", () => {
    const router = routerWith(["a", "b"]);
    const first = router.acquire("job", 0)!;
    router.release(first.backendId, { type: "failure" }, 0);
    const retry = router.acquire("job", 0, { excludeIds: new Set([first.backendId]) })!;
    expect(retry.reason).toBe("moved-excluded");
    expect(retry.backendId).not.toBe(first.backendId);
    expect(router.stickyBackendOf("job")).toBe(retry.backendId);
  });

  it("opens the circuit after N consecutive failures, probes once half-open, closes on success", () => {
    const router = routerWith(["a", "b"], { circuitBreaker: { failureThreshold: 2, openDurationMs: 1_000 } });
    router.drainBackend("b", 0);
    for (let i = 0; i < 2; i += 1)
      router.release(router.acquire(`f${i}`, 0)!.backendId, { type: "failure" }, 0);
    expect(router.getBackend("a", 0)?.circuit).toBe("open");
    expect(router.acquire("job", 500)).toBeNull();
    const probe = router.acquire("job", 1_000)!;
    expect(probe.backendId).toBe("a");
    expect(router.getBackend("a", 1_000)?.circuit).toBe("half-open");
    expect(router.acquire("other", 1_000)).toBeNull();
    router.release("a", ok, 1_010);
    expect(router.getBackend("a", 1_010)).toMatchObject({ circuit: "closed", consecutiveFailures: 0 });
    expect(router.acquire("other", 1_010)?.backendId).toBe("a");
  });

  it("re-opens when the half-open probe fails; a success in between resets the count", () => {
    const router = routerWith(["a"], { circuitBreaker: { failureThreshold: 2, openDurationMs: 100 } });
    router.release(router.acquire("j", 0)!.backendId, { type: "failure" }, 0);
    router.release(router.acquire("j", 0)!.backendId, ok, 0);
    router.release(router.acquire("j", 0)!.backendId, { type: "failure" }, 0);
    expect(router.getBackend("a", 0)?.circuit).toBe("closed");
    router.release(router.acquire("j", 0)!.backendId, { type: "failure" }, 0);
    expect(router.getBackend("a", 0)?.circuit).toBe("open");
    router.release(router.acquire("j", 100)!.backendId, { type: "failure" }, 100);
    expect(router.getBackend("a", 150)?.circuit).toBe("open");
    expect(router.acquire("j", 150)).toBeNull();
  });

  it("a rejected request (4xx) counts as an error but not against health", () => {
    const router = routerWith(["a"], { circuitBreaker: { failureThreshold: 1, openDurationMs: 10 } });
    router.release(router.acquire("j", 0)!.backendId, { type: "rejected" }, 0);
    expect(router.getBackend("a", 0)).toMatchObject({ circuit: "closed", stats: { errors: 1 } });
  });

  it("an aborted probe frees the half-open slot without closing or opening", () => {
    const router = routerWith(["a"], { circuitBreaker: { failureThreshold: 1, openDurationMs: 10 } });
    router.release(router.acquire("j", 0)!.backendId, { type: "failure" }, 0);
    router.release(router.acquire("j", 10)!.backendId, { type: "aborted" }, 10);
    expect(router.getBackend("a", 10)?.circuit).toBe("half-open");
    expect(router.acquire("j", 10)?.backendId).toBe("a");
  });

  it("health checks feed the breaker: failures open it, a passing check lets one probe through at once", () => {
    const router = routerWith(["a"], { circuitBreaker: { failureThreshold: 2, openDurationMs: 60_000 } });
    router.recordHealth("a", false, 0);
    router.recordHealth("a", false, 10);
    expect(router.getBackend("a", 10)).toMatchObject({
      circuit: "open",
      lastHealthCheck: { atMs: 10, isHealthy: false },
    });
    expect(router.acquire("j", 20)).toBeNull();
    // Back long before openDurationMs: the passing check makes the circuit half-open.
    router.recordHealth("a", true, 500);
    expect(router.getBackend("a", 500)?.circuit).toBe("half-open");
    const probe = router.acquire("j", 500)!;
    expect(router.acquire("k", 500)).toBeNull();
    router.release(probe.backendId, ok, 510);
    expect(router.getBackend("a", 510)?.circuit).toBe("closed");
    router.recordHealth("a", true, 1_010);
    expect(router.getBackend("a", 1_010)).toMatchObject({ circuit: "closed", consecutiveFailures: 0 });
  });

  it("gives a half-speed backend about half the new jobs of a full-speed one", () => {
    const router = routerWith(["fast", "slow"], { overloadMargin: 100 });
    router.registerBackend({ id: "fast", modelName: "m", weightVersion: null, maxConcurrency: 100 }, 0);
    router.registerBackend({ id: "slow", modelName: "m", weightVersion: null, maxConcurrency: 100 }, 0);
    // One measured request each: 2 ms per token on fast, 4 ms per token on slow.
    router.release(router.acquire("m1", 0)!.backendId, { ...ok, responseTokens: 100, latencyMs: 200 }, 0);
    router.release(router.acquire("m2", 0)!.backendId, { ...ok, responseTokens: 100, latencyMs: 400 }, 0);
    expect(router.listBackends(0).map((b) => b.stats.requests)).toEqual([1, 1]);
    for (let job = 0; job < 60; job += 1) router.acquire(`j${job}`, 0);
    expect(inFlightOf(router)).toEqual({ fast: 40, slow: 20 });
  });

  it("moves a sticky job off a slow backend once its speed-weighted load exceeds the margin", () => {
    const router = routerWith(["fast", "slow"], { overloadMargin: 4 });
    router.release(router.acquire("m1", 0)!.backendId, { ...ok, responseTokens: 100, latencyMs: 100 }, 0);
    router.release(router.acquire("m2", 0)!.backendId, { ...ok, responseTokens: 100, latencyMs: 300 }, 0);
    router.drainBackend("fast", 0);
    for (const job of ["x1", "x2", "x3"]) router.acquire(job, 0);
    router.resumeBackend("fast", 0);
    // slow: (3 + 1) × 3 = 12 weighted requests against fast's (0 + 1) × 1: moved.
    expect(router.acquire("x1", 0)).toEqual({
      backendId: "fast",
      reason: "moved-overloaded",
      previousBackendId: "slow",
    });
  });

  it("balances many concurrent jobs evenly", () => {
    const router = routerWith(["a", "b", "c", "d"]);
    for (let job = 0; job < 40; job += 1) router.acquire(`j${job}`, 0);
    expect(Object.values(inFlightOf(router))).toEqual([10, 10, 10, 10]);
  });

  it("prefers backends below their max concurrency for new jobs", () => {
    const router = new StickyRouter();
    router.registerBackend({ id: "small", modelName: "m", weightVersion: null, maxConcurrency: 1 }, 0);
    router.registerBackend({ id: "big", modelName: "m", weightVersion: null, maxConcurrency: 10 }, 0);
    const placed = ["j1", "j2", "j3"].map((job) => router.acquire(job, 0)!.backendId);
    expect(placed.filter((id) => id === "small")).toHaveLength(1);
    expect(placed.filter((id) => id === "big")).toHaveLength(2);
  });

  it("keeps per-backend statistics including the prefix-cache hit rate", () => {
    const router = routerWith(["a"], { statsWindowMs: 1_000 });
    router.release(router.acquire("j", 0)!.backendId, ok, 100);
    router.release(router.acquire("j", 0)!.backendId, { ...ok, cachedPromptTokens: 20 }, 200);
    router.release(router.acquire("j", 0)!.backendId, { type: "failure" }, 300);
    router.recordBackendCounters("a", { prefixCacheQueries: 200, prefixCacheHits: 150 }, 400);
    const { stats } = router.getBackend("a", 500)!;
    expect(stats).toMatchObject({
      requests: 3,
      errors: 1,
      promptTokens: 200,
      cachedPromptTokens: 100,
      responseTokens: 20,
    });
    expect(stats.prefixCacheHitRate).toBeCloseTo(0.5);
    expect(stats.responseTokensPerSec).toBeCloseTo(20);
    expect(stats.reported?.hitRate).toBeCloseTo(0.75);
    expect(router.getBackend("a", 1_150)!.stats.responseTokensPerSec).toBeCloseTo(10);
  });

  it("keeps unknown cached-token counts out of the hit rate and counts them", () => {
    const router = routerWith(["a"]);
    router.release(router.acquire("j", 0)!.backendId, { ...ok, cachedPromptTokens: null }, 100);
    expect(router.getBackend("a", 100)!.stats).toMatchObject({
      promptTokens: 100,
      cachedPromptTokens: 0,
      prefixCacheHitRate: null,
      requestsWithUnknownCachedTokens: 1,
    });
    router.release(
      router.acquire("j", 0)!.backendId,
      { ...ok, promptTokens: 200, cachedPromptTokens: 150 },
      200,
    );
    const { stats } = router.getBackend("a", 200)!;
    expect(stats).toMatchObject({
      promptTokens: 300,
      cachedPromptTokens: 150,
      requestsWithUnknownCachedTokens: 1,
    });
    expect(stats.prefixCacheHitRate).toBeCloseTo(0.75);
  });

  it("updates weight version and registration in place", () => {
    const router = routerWith(["a"]);
    expect(router.setWeightVersion("a", "v2", 0).weightVersion).toBe("v2");
    const again = router.registerBackend(
      { id: "a", modelName: "qwen3", weightVersion: "v3", maxConcurrency: 4 },
      0,
    );
    expect(again).toMatchObject({ isCreated: false, backend: { weightVersion: "v3", maxConcurrency: 4 } });
    expect(() =>
      router.registerBackend({ id: "z", modelName: "m", weightVersion: null, maxConcurrency: 0 }, 0),
    ).toThrow(/maxConcurrency/);
  });

  it("releaseJob forgets stickiness", () => {
    const router = routerWith(["a", "b"]);
    const first = router.acquire("job", 0)!;
    router.release(first.backendId, ok, 0);
    router.releaseJob("job");
    expect(router.stickyBackendOf("job")).toBeNull();
    expect(router.listBackends(0).every((b) => b.stickyJobs === 0)).toBe(true);
    expect(router.acquire("job", 0)?.reason).toBe("new-job");
  });

  it("routes a job only to backends of its policy, however loaded they are", () => {
    const router = new StickyRouter();
    const spec = { modelName: "qwen3", weightVersion: null, maxConcurrency: 8 };
    router.registerBackend({ id: "a-0", ...spec, policyId: "run-a" }, 0);
    router.registerBackend({ id: "b-0", ...spec, policyId: "run-b" }, 0);
    router.registerBackend({ id: "d-0", ...spec }, 0);
    // Load run-a's only backend well past the overload margin: its jobs still never leave it.
    for (let i = 0; i < 6; i += 1)
      expect(router.acquire(`a-${i}`, 0, { policyId: "run-a" })?.backendId).toBe("a-0");
    expect(router.acquire("b-job", 0, { policyId: "run-b" })?.backendId).toBe("b-0");
    // No policy named: the default policy's backends only.
    expect(router.acquire("plain", 0)?.backendId).toBe("d-0");
    expect(router.acquire("lost", 0, { policyId: "run-c" })).toBeNull();
    expect(router.listBackends(0).map((b) => [b.id, b.policyId])).toEqual([
      ["a-0", "run-a"],
      ["b-0", "run-b"],
      ["d-0", "default"],
    ]);

    // A backend moved to another policy no longer serves the jobs stuck to it.
    router.release("b-0", ok, 0);
    router.registerBackend({ id: "b-0", ...spec, policyId: "run-a" }, 0);
    expect(router.acquire("b-job", 0, { policyId: "run-b" })).toBeNull();
    router.registerBackend({ id: "b-1", ...spec, policyId: "run-b" }, 0);
    expect(router.acquire("b-job", 0, { policyId: "run-b" })).toEqual({
      backendId: "b-1",
      reason: "moved-unavailable",
      previousBackendId: "b-0",
    });
  });
});
