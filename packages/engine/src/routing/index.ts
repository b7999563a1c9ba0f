export type { BackendEngineCounters, BackendReportedCounters, BackendStats } from "./backend-stats";
export type { CircuitBreakerOptions, CircuitState, CircuitStatus } from "./circuit-breaker";
export { DEFAULT_CIRCUIT_BREAKER_OPTIONS } from "./circuit-breaker";
export type {
  BackendLifecycle,
  BackendSnapshot,
  RequestOutcome,
  RoutableBackend,
  RouteDecision,
  RouteReason,
  StickyRouterOptions,
} from "./routing.types";
export type { AcquireOptions } from "./sticky-router";
export { StickyRouter } from "./sticky-router";
