import { DEFAULT_POLICY_ID } from "@raas/shared";
import type { BackendView } from "../ports/inference-pool.port";
import type { WorkerRecord } from "../ports/worker-store.port";
import type { BackendStats } from "../routing/backend-stats";
import type { CircuitStatus } from "../routing/circuit-breaker";
import type { BackendLifecycle } from "../routing/routing.types";

/** One worker's view of its backends, from its last heartbeat. */
export interface WorkerBackendReport {
  workerId: string;
  backends: BackendView[];
}

/** One worker's own figures for a backend (beside the merged ones). */
interface BackendWorkerView {
  workerId: string;
  lifecycle: BackendLifecycle;
  circuit: CircuitStatus;
  inFlight: number;
  requests: number;
  errors: number;
  responseTokens: number;
  prefixCacheHitRate: number | null;
  responseTokensPerSec: number;
  weightVersion: string | null;
  lastHealthCheck: { atMs: number; isHealthy: boolean } | null;
}

/** A backend as the whole deployment routes to it: this process's view and every live worker's. */
export interface MergedBackendView extends BackendView {
  /** Each live worker's own figures for it, in report order; empty when only this process routes. */
  workers: BackendWorkerView[];
}

/**
 * The reports of the workers that still heartbeat: `active` or `draining` and heard from within
 * `missedAfterMs` of `nowMs` (a stale or lost worker's last figures are left out), without
 * `excludeWorkerId` (the caller's own worker, whose view it has first-hand).
 */
export function liveBackendReports(
  workers: readonly WorkerRecord[],
  options: { nowMs: number; missedAfterMs: number; excludeWorkerId?: string | null },
): WorkerBackendReport[] {
  return workers
    .filter(
      (worker) =>
        (worker.status === "active" || worker.status === "draining") &&
        worker.heartbeatAtMs >= options.nowMs - options.missedAfterMs &&
        worker.id !== options.excludeWorkerId &&
        worker.backends.length > 0,
    )
    .map((worker) => ({ workerId: worker.id, backends: worker.backends }));
}

/**
 * Merges this process's backend views (`own`, the control plane's registrations, in their order)
 * with the live workers' reports. Counters, in-flight load, sticky jobs and tokens/s are summed; the
 * hit rate is recomputed from the summed tokens; a backend's circuit is open (half-open) and its
 * last health check unhealthy where any process says so; the lifecycle is the control plane's (an
 * admin's drain or resume), `draining` while a drained backend still has turns in flight anywhere.
 * Backends only workers know (their own configuration) follow, unless `removedIds` names them.
 */
export function mergeBackendViews(
  own: readonly BackendView[],
  reports: readonly WorkerBackendReport[],
  options: { removedIds?: ReadonlySet<string> } = {},
): MergedBackendView[] {
  const ids = own.map((backend) => backend.id);
  for (const report of reports) {
    for (const backend of report.backends) {
      if (!ids.includes(backend.id) && !options.removedIds?.has(backend.id)) ids.push(backend.id);
    }
  }
  return ids.map((id) => {
    const mine = own.find((backend) => backend.id === id) ?? null;
    const theirs = reports.flatMap((report) => {
      const backend = report.backends.find((candidate) => candidate.id === id);
      return backend ? [{ workerId: report.workerId, backend }] : [];
    });
    return mergeOne(mine, theirs);
  });
}

function mergeOne(
  mine: BackendView | null,
  theirs: ReadonlyArray<{ workerId: string; backend: BackendView }>,
): MergedBackendView {
  const views = [...(mine ? [mine] : []), ...theirs.map((entry) => entry.backend)];
  const base = mine ?? (theirs[0]?.backend as BackendView);
  const inFlight = sum(views, (view) => view.inFlight);
  return {
    ...base,
    // A worker that reported before backends named a policy serves the default one.
    policyId: base.policyId ?? DEFAULT_POLICY_ID,
    lifecycle: mergeLifecycle(mine?.lifecycle ?? null, views, inFlight),
    circuit: mergeCircuit(views.map((view) => view.circuit)),
    consecutiveFailures: Math.max(...views.map((view) => view.consecutiveFailures)),
    inFlight,
    stickyJobs: sum(views, (view) => view.stickyJobs),
    lastHealthCheck: mergeHealth(views),
    stats: mergeStats(views.map((view) => view.stats)),
    workers: theirs.map(({ workerId, backend }) => ({
      workerId,
      lifecycle: backend.lifecycle,
      circuit: backend.circuit,
      inFlight: backend.inFlight,
      requests: backend.stats.requests,
      errors: backend.stats.errors,
      responseTokens: backend.stats.responseTokens,
      prefixCacheHitRate: backend.stats.prefixCacheHitRate,
      responseTokensPerSec: backend.stats.responseTokensPerSec,
      weightVersion: backend.weightVersion,
      lastHealthCheck: backend.lastHealthCheck,
    })),
  };
}

function mergeLifecycle(
  mine: BackendLifecycle | null,
  views: readonly BackendView[],
  inFlight: number,
): BackendLifecycle {
  if (mine !== null) return mine === "drained" && inFlight > 0 ? "draining" : mine;
  const lifecycles = views.map((view) => view.lifecycle);
  if (lifecycles.includes("draining")) return "draining";
  return lifecycles.every((lifecycle) => lifecycle === "drained") ? "drained" : "active";
}

function mergeCircuit(circuits: readonly CircuitStatus[]): CircuitStatus {
  if (circuits.includes("open")) return "open";
  return circuits.includes("half-open") ? "half-open" : "closed";
}

/** The latest check's time; unhealthy when any process's last check was. */
function mergeHealth(views: readonly BackendView[]): BackendView["lastHealthCheck"] {
  const checks = views.flatMap((view) => (view.lastHealthCheck ? [view.lastHealthCheck] : []));
  if (checks.length === 0) return null;
  return {
    atMs: Math.max(...checks.map((check) => check.atMs)),
    isHealthy: checks.every((check) => check.isHealthy),
  };
}

function mergeStats(all: readonly BackendStats[]): BackendStats {
  const successes = all.map((stats) => Math.max(0, stats.requests - stats.errors - stats.aborted));
  const totalSuccesses = successes.reduce((total, count) => total + count, 0);
  const cachedPromptTokens = sum(all, (stats) => stats.cachedPromptTokens);
  const promptTokensWithKnownCache = sum(all, (stats) => stats.promptTokensWithKnownCache);
  return {
    requests: sum(all, (stats) => stats.requests),
    errors: sum(all, (stats) => stats.errors),
    aborted: sum(all, (stats) => stats.aborted),
    promptTokens: sum(all, (stats) => stats.promptTokens),
    cachedPromptTokens,
    promptTokensWithKnownCache,
    responseTokens: sum(all, (stats) => stats.responseTokens),
    prefixCacheHitRate:
      promptTokensWithKnownCache === 0 ? null : cachedPromptTokens / promptTokensWithKnownCache,
    requestsWithUnknownCachedTokens: sum(all, (stats) => stats.requestsWithUnknownCachedTokens),
    responseTokensPerSec: sum(all, (stats) => stats.responseTokensPerSec),
    meanLatencyMs:
      totalSuccesses === 0
        ? 0
        : all.reduce((total, stats, i) => total + stats.meanLatencyMs * (successes[i] ?? 0), 0) /
          totalSuccesses,
    // The backend's own /metrics: every process scrapes the same server, so one copy (the first).
    reported: all.find((stats) => stats.reported !== null)?.reported ?? null,
  };
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  return items.reduce((total, item) => total + value(item), 0);
}
