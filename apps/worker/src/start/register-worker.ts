import {
  type ComposedEngine,
  type ComposedWorkers,
  composeImagePrefetcher,
  composeWorkers,
} from "@raas/compose";
import type { StoreHealthState } from "@raas/engine";
import type { WorkerConfig } from "../worker-config";
import type { WorkerHost, WorkerRegistration } from "./worker-parts.types";

/**
 * Starts the engine and registers this worker in the store; its health says whether the store is
 * reachable, and a sick sandbox runtime holds its INIT gate.
 */
export async function registerWorker(
  config: WorkerConfig,
  host: WorkerHost,
  composed: ComposedEngine,
  onSelfLost: () => void,
): Promise<WorkerRegistration> {
  await composed.engine.start();
  const workers = await composeWorkerRecord(config, host, composed, onSelfLost);
  const unsubscribeStore = reportStoreHealth(host, composed);
  gateInitOnSandboxHealth(host, workers);
  return { workers, unsubscribeStore };
}

function composeWorkerRecord(
  config: WorkerConfig,
  host: WorkerHost,
  composed: ComposedEngine,
  onSelfLost: () => void,
): Promise<ComposedWorkers> {
  const { logger, workerId } = host;
  // Progress goes out at once rather than at the next interval; bound once the heartbeat exists.
  let beatNow = () => {};
  const images = host.imageCache && composeImagePrefetcher(host.imageCache, () => beatNow());
  const workers = composeWorkers({
    store: composed.workers,
    engine: composed.engine,
    sandboxRuntime: host.sandboxRuntime,
    workerId,
    labels: config.labels,
    ...(config.heartbeatIntervalMs !== undefined && { heartbeatIntervalMs: config.heartbeatIntervalMs }),
    ...(composed.bus && { bus: composed.bus }),
    // The control plane merges these into backends.list.
    backends: () => host.inference.pool.listBackends(),
    // The server watches every worker; a worker only reports on itself.
    monitor: false,
    // Beats at once when the database is back after an outage.
    storeHealth: composed.storeHealth,
    unhealthyReason: () => host.conditions.unhealthyReason(),
    ...(images && { images }),
    onSelfLost: () => {
      // Its jobs were restarted elsewhere and the monitor never recovers an id twice: a worker
      // that went on would hold jobs nobody recovers if it died later. Stop; a supervisor starts a
      // new worker (a new id).
      logger.error({ workerId }, "this worker was marked lost (silent too long): stopping");
      onSelfLost();
    },
    logger: logger.child({ component: "workers" }),
  });
  return workers.then((composed) => {
    beatNow = () => void composed.heartbeat?.beat().catch(() => undefined);
    return composed;
  });
}

/**
 * A database outage is ridden out here (writes held and retried, jobs and sandboxes kept): the
 * worker says so, but it is no reason to stop taking work. Returns the unsubscribe.
 */
function reportStoreHealth(host: WorkerHost, composed: ComposedEngine): () => void {
  const reportStore = (store: StoreHealthState) =>
    host.conditions.report("store", { ok: store.available, reason: store.reason, stopsWork: false });
  reportStore(composed.storeHealth.state());
  return composed.storeHealth.onChange(reportStore);
}

/**
 * Suspect (a probe runs) or sick: no new INIT here (jobs already started finish); the INIT retry
 * lands on other workers. One gate with drain and stop: INIT opens when no reason holds.
 */
function gateInitOnSandboxHealth(host: WorkerHost, workers: ComposedWorkers): void {
  const { conditions } = host;
  const holdInit = () => workers.initGate.hold("sandboxes");
  const listener = {
    suspect: holdInit,
    sick: (reason: string) => {
      conditions.report("sandboxes", { ok: false, reason, stopsWork: true });
      holdInit();
      void workers.heartbeat?.beat().catch(() => undefined);
    },
    recovered: () => {
      const wasSick = conditions.get("sandboxes")?.ok === false;
      if (wasSick) conditions.report("sandboxes", { ok: true, stopsWork: true });
      workers.initGate.release("sandboxes");
      if (wasSick) void workers.heartbeat?.beat().catch(() => undefined);
    },
  };
  host.bindSandboxHealth(listener);
  const sickAlready = host.sandboxHealth.reason();
  if (sickAlready !== null) listener.sick(sickAlready);
}
