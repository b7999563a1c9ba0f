import type { BackendView, EngineLogger } from "@raas/engine";

/** Reads the backends' current state (no I/O): the pool's `listBackends`. */
export type ListBackends = () => BackendView[];

/**
 * Logs backend health transitions for operators, once per transition: a circuit that leaves
 * `closed` (warn: the backend gets no traffic until a probe succeeds; failed probes of a backend
 * that stays down are not logged again) and one that closes again (info). Reads the router's state
 * every `intervalMs` (default 1_000); the health monitor does the checking. `stop()` ends it.
 */
export function watchBackendHealth(
  listBackends: ListBackends,
  logger: EngineLogger,
  intervalMs = 1_000,
): { stop(): void } {
  const wasHealthy = new Map<string, boolean>();
  const timer = setInterval(() => {
    const seen = new Set<string>();
    for (const backend of listBackends()) {
      seen.add(backend.id);
      const isHealthy = backend.circuit === "closed";
      const previous = wasHealthy.get(backend.id) ?? true;
      wasHealthy.set(backend.id, isHealthy);
      if (previous === isHealthy) continue;
      const fields = { backendId: backend.id, baseUrl: backend.baseUrl, circuit: backend.circuit };
      if (isHealthy) logger.info(fields, "backend healthy again: circuit closed");
      else
        logger.warn(
          { ...fields, consecutiveFailures: backend.consecutiveFailures },
          "backend unhealthy: circuit open, no new traffic until a health probe succeeds",
        );
    }
    for (const id of wasHealthy.keys()) if (!seen.has(id)) wasHealthy.delete(id);
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
