import { type EngineLogger, StickyRouter, type StickyRouterOptions } from "@raas/engine";
import { RoutedInferencePool, type RoutedInferencePoolOptions, startHealthMonitor } from "@raas/inference";
import { DEFAULT_MODEL_NAME } from "@raas/shared";
import { watchBackendHealth } from "./backend-health.watcher";
import { type BackendSeed, defaultBackendId } from "./backend-list.parser";

/** The inference side of the server: where generations go. */
export interface InferenceConfig {
  /** Backends registered at start (`RAAS_BACKENDS`). Default none: register them at run time. */
  backends?: BackendSeed[];
  /** Model name of backends that name none. Default `DEFAULT_MODEL_NAME` of `@raas/shared`. */
  defaultModelName?: string;
  /** Time between health-check rounds, in ms. Default the health monitor's (5_000). */
  healthCheckIntervalMs?: number;
  /** Timeout of one health / metrics call, in ms. Default the health monitor's (2_000). */
  healthCheckTimeoutMs?: number;
  /** Routing policy knobs (overload margin, circuit breaker). Default the router's defaults. */
  router?: StickyRouterOptions;
  /** Outage budget of a turn, in ms (`RAAS_INFERENCE_OUTAGE_BUDGET_MS`). Default the pool's (60_000). */
  outageBudgetMs?: number;
  /**
   * Grant the backends' in-flight capacity in weighted-fair order between training runs (the
   * engine tells the pool each job's run). Default off; `RAAS_FAIR_SHARE` (default true) turns it on.
   */
  fairShare?: RoutedInferencePoolOptions["fairShare"];
}

export interface ComposedInference {
  /** Routes generations (the engine's `InferencePool`) and manages backends (`InferenceBackendRegistry`). */
  pool: RoutedInferencePool;
  defaultModelName: string;
  /** Stops health checks and closes the pooled HTTP client. Stop the engine first. */
  close(): Promise<void>;
}

/**
 * Builds the routed inference pool: the engine's `StickyRouter` decides, the pool does the HTTP,
 * a health monitor feeds the circuit breakers, and the configured backends are registered.
 */
export function composeInference(config: InferenceConfig, logger: EngineLogger): ComposedInference {
  const defaultModelName = config.defaultModelName ?? DEFAULT_MODEL_NAME;
  const pool = new RoutedInferencePool({
    router: new StickyRouter(config.router ?? {}),
    ...(config.outageBudgetMs !== undefined && { outageBudgetMs: config.outageBudgetMs }),
    ...(config.fairShare && { fairShare: config.fairShare }),
  });
  for (const seed of config.backends ?? []) {
    const { backend } = pool.registerBackend({
      id: defaultBackendId(seed.baseUrl),
      kind: seed.kind,
      baseUrl: seed.baseUrl,
      modelName: seed.modelName ?? defaultModelName,
    });
    logger.info(
      { backendId: backend.id, kind: backend.kind, baseUrl: backend.baseUrl, modelName: backend.modelName },
      "backend registered from configuration",
    );
  }
  const monitor = startHealthMonitor(pool, {
    ...(config.healthCheckIntervalMs !== undefined && { intervalMs: config.healthCheckIntervalMs }),
    ...(config.healthCheckTimeoutMs !== undefined && { timeoutMs: config.healthCheckTimeoutMs }),
    onError: (error) => logger.warn({ err: error }, "backend health-check round failed"),
  });
  const watcher = watchBackendHealth(() => pool.listBackends(), logger);
  return {
    pool,
    defaultModelName,
    async close() {
      monitor.stop();
      watcher.stop();
      await pool.close();
    },
  };
}
