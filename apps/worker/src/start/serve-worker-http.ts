import type { ComposedEngine } from "@raas/compose";
import type { WorkerConfig } from "../worker-config";
import { startWorkerHttp, type WorkerHttp } from "../worker-http";
import type { WorkerLifecycle } from "./worker-lifecycle";
import type { WorkerHost, WorkerRegistration } from "./worker-parts.types";

/**
 * Serves `/health` and `/metrics`. A running worker the store says is draining (drained through
 * the API) reports "draining".
 */
export async function serveWorkerHttp(
  config: WorkerConfig,
  host: WorkerHost,
  composed: ComposedEngine,
  registration: WorkerRegistration,
  lifecycle: WorkerLifecycle,
): Promise<WorkerHttp> {
  const { workers } = registration;
  const http = await startWorkerHttp({
    ...config.http,
    engine: composed.engine,
    inference: host.inference.pool,
    workerId: host.workerId,
    conditions: host.conditions,
    storeHealth: composed.storeHealth,
    state: () => {
      const state = lifecycle.state();
      return state === "running" && workers.heartbeat?.status === "draining" ? "draining" : state;
    },
  });
  lifecycle.serve(http);
  return http;
}
