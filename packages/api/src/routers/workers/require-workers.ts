import { requestFailure } from "@raas/shared";
import type { ControlPlaneContext } from "../../context";
import type { WorkerRecord, WorkerStore } from "../../workers.port";
import type { TWorkerView } from "./worker.schema";

/** The context's worker registry, or a 503 that says why there is none. */
export function requireWorkers(ctx: ControlPlaneContext): WorkerStore {
  if (ctx.workers) return ctx.workers;
  throw requestFailure(
    "UNAVAILABLE",
    "this server runs without a worker registry, so it has no workers to list or change; start it with one (apps/server always builds one)",
  );
}

export function unknownWorker(id: string) {
  return requestFailure(
    "NOT_FOUND",
    `no worker with id "${id}"; list them with workers.list (GET /api/v1/workers)`,
  );
}

/** A stored worker as the API shows it, its heartbeat age taken at `nowMs`. */
export function toWorkerView(worker: WorkerRecord, nowMs: number): TWorkerView {
  const { prefetchRequests: _requests, ...shown } = worker;
  return {
    ...shown,
    labels: [...worker.labels],
    isDraining: worker.status === "draining",
    isHealthy: worker.unhealthyReason === null,
    heartbeatAgeMs: Math.max(0, nowMs - worker.heartbeatAtMs),
  };
}
