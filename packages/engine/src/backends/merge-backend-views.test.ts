import { describe, expect, it } from "vitest";
import type { BackendView } from "../ports/inference-pool.port";
import type { WorkerRecord } from "../ports/worker-store.port";
import type { BackendStats } from "../routing/backend-stats";
import { liveBackendReports, mergeBackendViews } from "./merge-backend-views";

const idleStats: BackendStats = {
  requests: 0,
  errors: 0,
  aborted: 0,
  promptTokens: 0,
  cachedPromptTokens: 0,
  promptTokensWithKnownCache: 0,
  responseTokens: 0,
  prefixCacheHitRate: null,
  requestsWithUnknownCachedTokens: 0,
  responseTokensPerSec: 0,
  meanLatencyMs: 0,
  reported: null,
};

function view(
  id: string,
  overrides: Partial<BackendView> = {},
  stats: Partial<BackendStats> = {},
): BackendView {
  return {
    id,
    kind: "vllm",
    baseUrl: `http://${id}:8000`,
    modelName: "Qwen/Qwen3-8B",
    weightVersion: "step-1",
    maxConcurrency: 64,
    policyId: "default",
    lifecycle: "active",
    circuit: "closed",
    consecutiveFailures: 0,
    inFlight: 0,
    stickyJobs: 0,
    registeredAtMs: 1_000,
    lastHealthCheck: null,
    ...overrides,
    stats: { ...idleStats, ...stats },
  };
}

function worker(id: string, backends: BackendView[], overrides: Partial<WorkerRecord> = {}): WorkerRecord {
  return {
    id,
    hostname: "node",
    pid: 1,
    labels: [],
    pools: {},
    sandboxes: 0,
    backends,
    unhealthyReason: null,
    status: "active",
    startedAtMs: 0,
    heartbeatAtMs: 10_000,
    stoppedAtMs: null,
    images: null,
    prefetchRequests: [],
    ...overrides,
  };
}

describe("mergeBackendViews", () => {
  it("sums counters, load and tokens/s over the processes and recomputes the hit rate from the tokens", () => {
    const own = [view("a", {}, { requests: 1, promptTokens: 100, promptTokensWithKnownCache: 100 })];
    const merged = mergeBackendViews(own, [
      {
        workerId: "w1",
        backends: [
          view(
            "a",
            { inFlight: 3, stickyJobs: 2 },
            {
              requests: 10,
              errors: 2,
              promptTokens: 1_000,
              cachedPromptTokens: 600,
              promptTokensWithKnownCache: 1_000,
              responseTokens: 400,
              responseTokensPerSec: 20,
              meanLatencyMs: 100,
              prefixCacheHitRate: 0.6,
            },
          ),
        ],
      },
      {
        workerId: "w2",
        backends: [
          view(
            "a",
            { inFlight: 1, stickyJobs: 1 },
            {
              requests: 4,
              aborted: 1,
              promptTokens: 500,
              cachedPromptTokens: 100,
              promptTokensWithKnownCache: 400,
              requestsWithUnknownCachedTokens: 1,
              responseTokens: 100,
              responseTokensPerSec: 5,
              meanLatencyMs: 200,
            },
          ),
        ],
      },
    ]);
    expect(merged).toHaveLength(1);
    const [a] = merged;
    expect(a).toMatchObject({ id: "a", inFlight: 4, stickyJobs: 3, lifecycle: "active", circuit: "closed" });
    expect(a?.stats).toMatchObject({
      requests: 15,
      errors: 2,
      aborted: 1,
      promptTokens: 1_600,
      cachedPromptTokens: 700,
      promptTokensWithKnownCache: 1_500,
      responseTokens: 500,
      requestsWithUnknownCachedTokens: 1,
      responseTokensPerSec: 25,
    });
    expect(a?.stats.prefixCacheHitRate).toBeCloseTo(700 / 1_500);
    // 8 successes at 100 ms on w1, 3 at 200 ms on w2; the server's one request had no latency.
    expect(a?.stats.meanLatencyMs).toBeCloseTo((8 * 100 + 3 * 200) / 12);
    expect(a?.workers.map((w) => [w.workerId, w.requests, w.inFlight])).toEqual([
      ["w1", 10, 3],
      ["w2", 4, 1],
    ]);
  });

  it("is open and unhealthy where any worker says so, and keeps the control plane's lifecycle", () => {
    const merged = mergeBackendViews(
      [view("a", { lifecycle: "drained", lastHealthCheck: { atMs: 5_000, isHealthy: true } })],
      [
        {
          workerId: "w1",
          backends: [
            view("a", {
              lifecycle: "active",
              circuit: "open",
              consecutiveFailures: 3,
              inFlight: 1,
              lastHealthCheck: { atMs: 6_000, isHealthy: false },
            }),
          ],
        },
        { workerId: "w2", backends: [view("a", { circuit: "half-open" })] },
      ],
    );
    expect(merged[0]).toMatchObject({
      circuit: "open",
      consecutiveFailures: 3,
      // Drained here but a turn still runs on a worker: draining.
      lifecycle: "draining",
      lastHealthCheck: { atMs: 6_000, isHealthy: false },
    });
    expect(merged[0]?.workers.map((w) => w.circuit)).toEqual(["open", "half-open"]);
    const halfOpen = mergeBackendViews(
      [view("a")],
      [{ workerId: "w", backends: [view("a", { circuit: "half-open" })] }],
    );
    expect(halfOpen[0]?.circuit).toBe("half-open");
    const resumedHere = mergeBackendViews(
      [view("a")],
      [{ workerId: "w", backends: [view("a", { lifecycle: "draining" })] }],
    );
    expect(resumedHere[0]?.lifecycle).toBe("active");
  });

  it("adds backends only workers know after the control plane's, unless they were removed", () => {
    const merged = mergeBackendViews(
      [view("a")],
      [
        { workerId: "w1", backends: [view("b", { lifecycle: "drained" }), view("gone")] },
        {
          workerId: "w2",
          backends: [view("b", { lifecycle: "draining" }), view("c", { lifecycle: "drained" })],
        },
      ],
      { removedIds: new Set(["gone"]) },
    );
    expect(merged.map((b) => [b.id, b.lifecycle])).toEqual([
      ["a", "active"],
      ["b", "draining"],
      ["c", "drained"],
    ]);
    expect(merged[0]?.workers).toEqual([]);
  });

  it("takes the backend's own /metrics once, not summed", () => {
    const reported = { prefixCacheQueries: 100, prefixCacheHits: 40, hitRate: 0.4 };
    const merged = mergeBackendViews(
      [view("a")],
      [
        { workerId: "w1", backends: [view("a", {}, { reported })] },
        { workerId: "w2", backends: [view("a", {}, { reported })] },
      ],
    );
    expect(merged[0]?.stats.reported).toEqual(reported);
    expect(merged[0]?.stats.prefixCacheHitRate).toBeNull();
  });
});

describe("liveBackendReports", () => {
  it("keeps active and draining workers heard from recently, without the caller's own", () => {
    const a = [view("a")];
    const reports = liveBackendReports(
      [
        worker("fresh", a),
        worker("draining", a, { status: "draining" }),
        worker("silent", a, { heartbeatAtMs: 500 }),
        worker("lost", a, { status: "lost" }),
        worker("stopped", a, { status: "stopped" }),
        worker("self", a),
        worker("none", []),
      ],
      { nowMs: 12_000, missedAfterMs: 9_000, excludeWorkerId: "self" },
    );
    expect(reports.map((report) => report.workerId)).toEqual(["fresh", "draining"]);
  });
});
