import type { BackendReportedCounters, BackendStats } from "./backend-stats";
import type { InferenceUtilisation } from "./backend-utilisation";
import type { CircuitBreakerOptions, CircuitStatus } from "./circuit-breaker";

/** What the router needs to know about a backend to route to it. */
export interface RoutableBackend {
  /** Unique id of the backend (e.g. `vllm-0` or its URL). */
  id: string;
  /** Served model name, e.g. `Qwen/Qwen3-8B`. */
  modelName: string;
  /** Version of the weights it serves; null when unknown. */
  weightVersion: string | null;
  /** Requests the backend runs at once; new jobs avoid backends at this limit. Must be >= 1. */
  maxConcurrency: number;
  /**
   * The policy whose weights it serves: only that policy's jobs are routed to it, and that
   * policy's weight version is stamped on it. Default `DEFAULT_POLICY_ID`.
   */
  policyId?: string;
}

export interface StickyRouterOptions {
  /**
   * A sticky job moves to the least-loaded backend when its own backend has more than this many
   * in-flight requests above the least-loaded one. In requests; default 4.
   */
  overloadMargin?: number;
  /** Circuit breaker thresholds; defaults 3 consecutive failures, 10_000 ms open. */
  circuitBreaker?: Partial<CircuitBreakerOptions>;
  /** Span of the tokens/s statistic in ms. Default 60_000. */
  statsWindowMs?: number;
}

/** Lifecycle of a registered backend: `draining` finishes in-flight work, `drained` has none left. */
export type BackendLifecycle = "active" | "draining" | "drained";

/** Why a request went where it went. */
type RouteReason =
  /** The job's sticky backend. */
  | "sticky"
  /** First turn of the job: least-loaded backend. */
  | "new-job"
  /** The sticky backend was unhealthy (open circuit), draining or removed. */
  | "moved-unavailable"
  /** The sticky backend exceeded the least-loaded one by more than the overload margin. */
  | "moved-overloaded"
  /** The caller excluded the sticky backend (e.g. it just failed to connect). */
  | "moved-excluded";

export interface RouteDecision {
  backendId: string;
  reason: RouteReason;
  /** The job's previous sticky backend when the job moved. */
  previousBackendId: string | null;
}

/** How a dispatched request ended. */
export type RequestOutcome =
  | {
      type: "success";
      promptTokens: number;
      /** Null when the backend did not say (kept out of the hit rate, counted as unknown). */
      cachedPromptTokens: number | null;
      responseTokens: number;
      latencyMs: number;
    }
  /** A failure that counts against the backend's health (connection, 5xx, bad response, deadline). */
  | { type: "failure" }
  /** The backend refused this request (4xx): counted as an error, not against the backend's health. */
  | { type: "rejected" }
  /** The caller aborted; says nothing about the backend. */
  | { type: "aborted" };

/** One backend as shown to operators and the dashboard. */
export interface BackendSnapshot extends RoutableBackend {
  /** The policy whose weights it serves (the default policy when its registration named none). */
  policyId: string;
  lifecycle: BackendLifecycle;
  circuit: CircuitStatus;
  consecutiveFailures: number;
  inFlight: number;
  /** Jobs currently sticky to this backend. */
  stickyJobs: number;
  registeredAtMs: number;
  lastHealthCheck: { atMs: number; isHealthy: boolean } | null;
  stats: BackendStats;
  /**
   * Inference busy fraction and slot utilisation over the stats window (from the backend's own
   * running gauge, else the router's in-flight count); null before any time has passed, absent
   * where a view carries none (e.g. merged from workers).
   */
  utilisation?: InferenceUtilisation | null;
}

export type { BackendReportedCounters };
