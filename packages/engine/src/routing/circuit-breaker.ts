import { assertNever } from "@raas/shared";

/** Options of the per-backend circuit breaker. */
export interface CircuitBreakerOptions {
  /** Consecutive failures (requests or health checks) that open the circuit. Default 3. */
  failureThreshold: number;
  /** Time an open circuit waits before it lets one probe through (half-open), in ms. Default 10_000. */
  openDurationMs: number;
}

export const DEFAULT_CIRCUIT_BREAKER_OPTIONS: CircuitBreakerOptions = {
  failureThreshold: 3,
  openDurationMs: 10_000,
};

/**
 * Circuit state of one backend.
 * - `closed`: traffic flows; failures are counted.
 * - `open`: no traffic until `openDurationMs` has passed since `openedAtMs`.
 * - `half-open`: exactly one probe (a request or a health check) decides: success closes, failure re-opens.
 */
export type CircuitState =
  | { status: "closed"; consecutiveFailures: number }
  | { status: "open"; consecutiveFailures: number; openedAtMs: number }
  | { status: "half-open"; consecutiveFailures: number; isProbeInFlight: boolean };

export type CircuitStatus = CircuitState["status"];

export const CLOSED_CIRCUIT: CircuitState = { status: "closed", consecutiveFailures: 0 };

/** Moves an open circuit whose wait is over to half-open; other states are returned unchanged. */
export function advanceCircuit(
  state: CircuitState,
  options: CircuitBreakerOptions,
  nowMs: number,
): CircuitState {
  if (state.status === "open" && nowMs - state.openedAtMs >= options.openDurationMs) {
    return { status: "half-open", consecutiveFailures: state.consecutiveFailures, isProbeInFlight: false };
  }
  return state;
}

/** True when the circuit lets a new request through (after `advanceCircuit`). */
export function canCircuitDispatch(state: CircuitState): boolean {
  switch (state.status) {
    case "closed":
      return true;
    case "open":
      return false;
    case "half-open":
      return !state.isProbeInFlight;
    default:
      return assertNever(state, "circuit state");
  }
}

/** A request was dispatched: in half-open that request is the probe. */
export function circuitAfterDispatch(state: CircuitState): CircuitState {
  return state.status === "half-open" ? { ...state, isProbeInFlight: true } : state;
}

/**
 * A passed health check: evidence the backend is back, but not yet that it serves. An open circuit
 * lets one probe request through at once (half-open) instead of waiting out `openDurationMs`;
 * otherwise it counts as a success.
 */
export function circuitAfterPassedCheck(state: CircuitState): CircuitState {
  return state.status === "open"
    ? { status: "half-open", consecutiveFailures: state.consecutiveFailures, isProbeInFlight: false }
    : circuitAfterSuccess(state);
}

export function circuitAfterSuccess(_state: CircuitState): CircuitState {
  return CLOSED_CIRCUIT;
}

export function circuitAfterFailure(
  state: CircuitState,
  options: CircuitBreakerOptions,
  nowMs: number,
): CircuitState {
  const consecutiveFailures = state.consecutiveFailures + 1;
  switch (state.status) {
    case "closed":
      return consecutiveFailures >= options.failureThreshold
        ? { status: "open", consecutiveFailures, openedAtMs: nowMs }
        : { status: "closed", consecutiveFailures };
    case "open":
      return { status: "open", consecutiveFailures, openedAtMs: state.openedAtMs };
    case "half-open":
      return { status: "open", consecutiveFailures, openedAtMs: nowMs };
    default:
      return assertNever(state, "circuit state");
  }
}

/** A dispatched request ended without a verdict on the backend (aborted by the caller). */
export function circuitAfterAbort(state: CircuitState): CircuitState {
  return state.status === "half-open" ? { ...state, isProbeInFlight: false } : state;
}
