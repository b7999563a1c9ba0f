import { DEFAULT_POLICY_ID, requestFailure } from "@raas/shared";
import type { InferenceRouter } from "../ports/inference-pool.port";
import { BackendSpeed, slownessFactors } from "./backend-speed";
import { BackendStatsAccumulator } from "./backend-stats";
import { BackendUtilisation } from "./backend-utilisation";
import {
  advanceCircuit,
  type CircuitBreakerOptions,
  type CircuitState,
  CLOSED_CIRCUIT,
  canCircuitDispatch,
  circuitAfterAbort,
  circuitAfterDispatch,
  circuitAfterFailure,
  circuitAfterPassedCheck,
  circuitAfterSuccess,
  DEFAULT_CIRCUIT_BREAKER_OPTIONS,
} from "./circuit-breaker";
import { IndexedMinHeap } from "./min-heap";
import type {
  BackendReportedCounters,
  BackendSnapshot,
  RequestOutcome,
  RoutableBackend,
  RouteDecision,
  StickyRouterOptions,
} from "./routing.types";

interface BackendEntry {
  readonly id: string;
  config: RoutableBackend;
  inFlight: number;
  stickyJobs: number;
  isDraining: boolean;
  circuit: CircuitState;
  lastPickSeq: number;
  registeredAtMs: number;
  lastHealthCheck: { atMs: number; isHealthy: boolean } | null;
  readonly stats: BackendStatsAccumulator;
  readonly utilisation: BackendUtilisation;
  readonly speed: BackendSpeed;
}

/** Options for one `acquire` call. */
export interface AcquireOptions {
  /** Backends not to use for this request (e.g. ones that just refused the connection). */
  excludeIds?: ReadonlySet<string>;
  /**
   * The policy of the job: only backends serving it are candidates, so a run's turns never go to
   * another policy's weights. Default `DEFAULT_POLICY_ID`.
   */
  policyId?: string;
}

/** The policy a backend serves. */
function policyOf(entry: BackendEntry): string {
  return entry.config.policyId ?? DEFAULT_POLICY_ID;
}

/** Least in-flight first; then fewer sticky jobs; then the one picked longest ago. */
function lessLoaded(a: BackendEntry, b: BackendEntry): boolean {
  if (a.inFlight !== b.inFlight) return a.inFlight < b.inFlight;
  return isOlderPick(a, b);
}

function isOlderPick(a: BackendEntry, b: BackendEntry): boolean {
  if (a.stickyJobs !== b.stickyJobs) return a.stickyJobs < b.stickyJobs;
  return a.lastPickSeq < b.lastPickSeq;
}

/**
 * A backend's load for one more request, in requests of the fastest backend: (in-flight + 1) ×
 * how many times slower it is. Equal speeds make this plain least in-flight.
 */
function weightedLoad(entry: BackendEntry, factors: ReadonlyMap<string, number>): number {
  return (entry.inFlight + 1) * (factors.get(entry.id) ?? 1);
}

/**
 * Load-aware sticky routing over inference backends. Pure decision logic: no I/O, time passed in.
 *
 * A min-heap holds the backends that can take traffic, keyed by in-flight requests (incremented in
 * `acquire`, decremented in `release` whatever the outcome). Load is weighed by speed: each
 * backend's in-flight count (+1 for the request being placed) times how many times slower than the
 * fastest it has been (a moving average of ms per generated token), so a half-speed backend takes
 * about half the work. A job sticks to its backend for every turn so the backend's prefix cache is
 * reused; it moves only when that backend is draining, removed, has an open circuit, or carries
 * more than `overloadMargin` weighted requests above the least-loaded backend. A job is routed only
 * to backends of its policy (`AcquireOptions.policyId`); load is compared among those.
 */
export class StickyRouter implements InferenceRouter {
  private readonly backends = new Map<string, BackendEntry>();
  private readonly heap = new IndexedMinHeap<BackendEntry>(lessLoaded);
  private readonly jobs = new Map<string, string>();
  private readonly overloadMargin: number;
  private readonly breaker: CircuitBreakerOptions;
  private readonly statsWindowMs: number;
  private pickSeq = 0;

  constructor(options: StickyRouterOptions = {}) {
    this.overloadMargin = options.overloadMargin ?? 4;
    this.breaker = { ...DEFAULT_CIRCUIT_BREAKER_OPTIONS, ...options.circuitBreaker };
    this.statsWindowMs = options.statsWindowMs ?? 60_000;
  }

  /** Adds a backend, or updates model, weight version and concurrency of a known one. */
  registerBackend(backend: RoutableBackend, nowMs: number): { backend: BackendSnapshot; isCreated: boolean } {
    if (!Number.isInteger(backend.maxConcurrency) || backend.maxConcurrency < 1) {
      throw requestFailure(
        "VALIDATION_FAILED",
        `maxConcurrency of backend ${backend.id} must be an integer >= 1`,
      );
    }
    const existing = this.backends.get(backend.id);
    if (existing) {
      existing.config = { ...backend };
      this.refresh(existing);
      return { backend: this.snapshotOf(existing, nowMs), isCreated: false };
    }
    const entry: BackendEntry = {
      id: backend.id,
      config: { ...backend },
      inFlight: 0,
      stickyJobs: 0,
      isDraining: false,
      circuit: CLOSED_CIRCUIT,
      lastPickSeq: 0,
      registeredAtMs: nowMs,
      lastHealthCheck: null,
      stats: new BackendStatsAccumulator(this.statsWindowMs),
      utilisation: new BackendUtilisation(this.statsWindowMs),
      speed: new BackendSpeed(),
    };
    entry.utilisation.recordInFlight(0, nowMs);
    this.backends.set(entry.id, entry);
    this.refresh(entry);
    return { backend: this.snapshotOf(entry, nowMs), isCreated: true };
  }

  /** Forgets a backend. Its in-flight requests may still `release`; their jobs move on their next turn. */
  removeBackend(backendId: string, nowMs: number): BackendSnapshot {
    const entry = this.require(backendId);
    const snapshot = this.snapshotOf(entry, nowMs);
    this.heap.remove(backendId);
    this.backends.delete(backendId);
    return snapshot;
  }

  /** Stops new work for a backend; in-flight turns finish and its jobs move on their next turn. */
  drainBackend(backendId: string, nowMs: number): BackendSnapshot {
    const entry = this.require(backendId);
    entry.isDraining = true;
    this.refresh(entry);
    return this.snapshotOf(entry, nowMs);
  }

  /** Undoes `drainBackend`. */
  resumeBackend(backendId: string, nowMs: number): BackendSnapshot {
    const entry = this.require(backendId);
    entry.isDraining = false;
    this.refresh(entry);
    return this.snapshotOf(entry, nowMs);
  }

  setWeightVersion(backendId: string, weightVersion: string | null, nowMs: number): BackendSnapshot {
    const entry = this.require(backendId);
    entry.config = { ...entry.config, weightVersion };
    return this.snapshotOf(entry, nowMs);
  }

  /**
   * Chooses the backend for the next request of `jobId` and counts it in flight. Returns null when
   * no backend can take traffic. Every non-null result must be followed by exactly one `release`.
   */
  acquire(jobId: string, nowMs: number, options: AcquireOptions = {}): RouteDecision | null {
    this.advanceCircuits(nowMs);
    const excluded = options.excludeIds;
    const policyId = options.policyId ?? DEFAULT_POLICY_ID;
    const stickyId = this.jobs.get(jobId) ?? null;
    const stuck = stickyId === null ? undefined : this.backends.get(stickyId);
    // A backend moved to another policy since is no longer the job's.
    const sticky = stuck && policyOf(stuck) === policyId ? stuck : undefined;
    const factors = slownessFactors(this.heap.values());
    const least = this.leastLoaded(excluded, factors, policyId);
    let chosen: BackendEntry | undefined;
    let reason: RouteDecision["reason"];
    if (sticky && excluded?.has(sticky.id)) {
      chosen = least;
      reason = "moved-excluded";
    } else if (sticky && this.heap.has(sticky.id)) {
      const isOverloaded =
        least !== undefined &&
        weightedLoad(sticky, factors) - weightedLoad(least, factors) > this.overloadMargin;
      chosen = isOverloaded ? least : sticky;
      reason = isOverloaded ? "moved-overloaded" : "sticky";
    } else {
      chosen = least;
      reason = stickyId === null ? "new-job" : "moved-unavailable";
    }
    if (!chosen) return null;
    this.dispatch(jobId, chosen, stickyId);
    chosen.utilisation.recordInFlight(chosen.inFlight, nowMs);
    return { backendId: chosen.id, reason, previousBackendId: chosen.id === stickyId ? null : stickyId };
  }

  /** Ends one request started by `acquire`. Unknown (removed) backends are ignored. */
  release(backendId: string, outcome: RequestOutcome, nowMs: number): void {
    const entry = this.backends.get(backendId);
    if (!entry) return;
    entry.inFlight = Math.max(0, entry.inFlight - 1);
    entry.utilisation.recordInFlight(entry.inFlight, nowMs);
    switch (outcome.type) {
      case "success":
        entry.circuit = circuitAfterSuccess(entry.circuit);
        entry.stats.recordSuccess(outcome, nowMs);
        entry.speed.record(outcome.latencyMs, outcome.responseTokens);
        break;
      case "failure":
        entry.circuit = circuitAfterFailure(entry.circuit, this.breaker, nowMs);
        entry.stats.recordFailure();
        break;
      case "rejected":
        entry.circuit = circuitAfterAbort(entry.circuit);
        entry.stats.recordFailure();
        break;
      case "aborted":
        entry.circuit = circuitAfterAbort(entry.circuit);
        entry.stats.recordAbort();
        break;
    }
    this.refresh(entry);
  }

  /** The job is finished: forget its sticky backend. */
  releaseJob(jobId: string): void {
    const backendId = this.jobs.get(jobId);
    if (backendId === undefined) return;
    this.jobs.delete(jobId);
    const entry = this.backends.get(backendId);
    if (entry) {
      entry.stickyJobs = Math.max(0, entry.stickyJobs - 1);
      this.refresh(entry);
    }
  }

  /**
   * Feeds a health-check result to the circuit breaker. A failed check counts as a failure; a
   * passed check closes a closed or half-open circuit's count (it is the probe) and turns an open
   * circuit half-open, so that a restarted backend takes a probe request without waiting out
   * `openDurationMs`.
   */
  recordHealth(backendId: string, isHealthy: boolean, nowMs: number): void {
    const entry = this.backends.get(backendId);
    if (!entry) return;
    entry.lastHealthCheck = { atMs: nowMs, isHealthy };
    const circuit = advanceCircuit(entry.circuit, this.breaker, nowMs);
    if (isHealthy) entry.circuit = circuitAfterPassedCheck(circuit);
    else entry.circuit = circuitAfterFailure(circuit, this.breaker, nowMs);
    this.refresh(entry);
  }

  /**
   * Stores the counters the backend reports itself (e.g. from its `/metrics`), read at `nowMs`; its
   * running gauge, when present, becomes the source of its utilisation figures.
   */
  recordBackendCounters(backendId: string, counters: BackendReportedCounters, nowMs: number): void {
    const entry = this.backends.get(backendId);
    if (!entry) return;
    entry.stats.recordReported(counters);
    entry.utilisation.recordReported(counters, nowMs);
  }

  stickyBackendOf(jobId: string): string | null {
    return this.jobs.get(jobId) ?? null;
  }

  getBackend(backendId: string, nowMs: number): BackendSnapshot | null {
    const entry = this.backends.get(backendId);
    return entry ? this.snapshotOf(entry, nowMs) : null;
  }

  listBackends(nowMs: number): BackendSnapshot[] {
    this.advanceCircuits(nowMs);
    return [...this.backends.values()]
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((entry) => this.snapshotOf(entry, nowMs));
  }

  private dispatch(jobId: string, entry: BackendEntry, previousId: string | null): void {
    if (previousId !== entry.id) {
      const previous = previousId === null ? undefined : this.backends.get(previousId);
      if (previous) {
        previous.stickyJobs = Math.max(0, previous.stickyJobs - 1);
        this.refresh(previous);
      }
      entry.stickyJobs += 1;
      this.jobs.set(jobId, entry.id);
    }
    entry.inFlight += 1;
    entry.circuit = circuitAfterDispatch(entry.circuit);
    this.pickSeq += 1;
    entry.lastPickSeq = this.pickSeq;
    this.refresh(entry);
  }

  /** Least speed-weighted load among routable backends, preferring ones below their max concurrency. */
  private leastLoaded(
    excluded: ReadonlySet<string> | undefined,
    factors: ReadonlyMap<string, number>,
    policyId: string,
  ): BackendEntry | undefined {
    const isLess = (a: BackendEntry, b: BackendEntry) => {
      const [loadA, loadB] = [weightedLoad(a, factors), weightedLoad(b, factors)];
      return loadA !== loadB ? loadA < loadB : isOlderPick(a, b);
    };
    let best: BackendEntry | undefined;
    let bestWithRoom: BackendEntry | undefined;
    for (const entry of this.heap.values()) {
      if (excluded?.has(entry.id) || policyOf(entry) !== policyId) continue;
      if (!best || isLess(entry, best)) best = entry;
      if (entry.inFlight < entry.config.maxConcurrency && (!bestWithRoom || isLess(entry, bestWithRoom))) {
        bestWithRoom = entry;
      }
    }
    return bestWithRoom ?? best;
  }

  private advanceCircuits(nowMs: number): void {
    for (const entry of this.backends.values()) {
      if (entry.circuit.status !== "open") continue;
      entry.circuit = advanceCircuit(entry.circuit, this.breaker, nowMs);
      this.refresh(entry);
    }
  }

  /** Keeps heap membership and position in line with the entry's state. */
  private refresh(entry: BackendEntry): void {
    const isRoutable = this.backends.has(entry.id) && !entry.isDraining && canCircuitDispatch(entry.circuit);
    if (isRoutable) this.heap.insert(entry);
    else this.heap.remove(entry.id);
  }

  private require(backendId: string): BackendEntry {
    const entry = this.backends.get(backendId);
    if (!entry) throw requestFailure("NOT_FOUND", `No backend with id ${backendId} is registered`);
    return entry;
  }

  private snapshotOf(entry: BackendEntry, nowMs: number): BackendSnapshot {
    return {
      ...entry.config,
      policyId: policyOf(entry),
      lifecycle: !entry.isDraining ? "active" : entry.inFlight > 0 ? "draining" : "drained",
      circuit: entry.circuit.status,
      consecutiveFailures: entry.circuit.consecutiveFailures,
      inFlight: entry.inFlight,
      stickyJobs: entry.stickyJobs,
      registeredAtMs: entry.registeredAtMs,
      lastHealthCheck: entry.lastHealthCheck,
      stats: entry.stats.snapshot(nowMs),
      utilisation: entry.utilisation.snapshot(nowMs, entry.config.maxConcurrency),
    };
  }
}
