import type { RoutedInferencePool } from "./routed-inference-pool";

export interface HealthMonitorOptions {
  /** Time between health-check rounds, in ms. Default 5_000. */
  intervalMs?: number;
  /** Timeout of each health / metrics call, in ms. Default 2_000. */
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
      await pool.checkHealth(options.timeoutMs ?? 2_000);
    } catch (error) {
      options.onError?.(error);
    }
    if (isStopped) return;
    timer = setTimeout(round, options.intervalMs ?? 5_000);
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
