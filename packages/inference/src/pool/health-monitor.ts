import type { RoutedInferencePool } from "./routed-inference-pool";

/** Time between health-check rounds, in ms (the server's `RAAS_BACKEND_HEALTH_INTERVAL_MS`). */
export const DEFAULT_HEALTH_CHECK_INTERVAL_MS = 5_000;
/** Timeout of each health / metrics call, in ms. */
const DEFAULT_HEALTH_CHECK_TIMEOUT_MS = 2_000;

export interface HealthMonitorOptions {
  /** Time between health-check rounds, in ms. Default `DEFAULT_HEALTH_CHECK_INTERVAL_MS` (5 s). */
  intervalMs?: number;
  /** Timeout of each health / metrics call, in ms. Default `DEFAULT_HEALTH_CHECK_TIMEOUT_MS` (2 s). */
  timeoutMs?: number;
  /** Called when a round throws unexpectedly (network errors are health results, not errors). */
  onError?: (error: unknown) => void;
}

/** Runs `pool.checkHealth()` periodically; rounds never overlap. `stop()` ends it. */
export function startHealthMonitor(
  pool: RoutedInferencePool,
  options: HealthMonitorOptions = {},
): { stop(): void } {
  let isStopped = false;
  let timer: NodeJS.Timeout | undefined;
  const round = async () => {
    try {
      await pool.checkHealth(options.timeoutMs ?? DEFAULT_HEALTH_CHECK_TIMEOUT_MS);
    } catch (error) {
      options.onError?.(error);
    }
    if (isStopped) return;
    timer = setTimeout(round, options.intervalMs ?? DEFAULT_HEALTH_CHECK_INTERVAL_MS);
    timer.unref();
  };
  timer = setTimeout(round, 0);
  timer.unref();
  return {
    stop() {
      isStopped = true;
      clearTimeout(timer);
    },
  };
}
