import {
  type ComposedBackends,
  type ComposedBatches,
  type ComposedWorkers,
  composeBackends,
  composeBatches,
  composeImagePrefetcher,
  composeWorkers,
  recordSandboxEvents,
} from "@raas/compose";
import type { ServerConfig } from "../server";
import type { ServerCore, ServerSystems } from "./server-parts.types";

/**
 * Starts the engine and what runs beside it: sandbox-event recording, this process as a worker
 * and the monitor of every worker, the backend directory, the batch system; the gateway follows
 * the engine's jobs.
 */
export async function startServerSystems(config: ServerConfig, core: ServerCore): Promise<ServerSystems> {
  const { composed, logger } = core;
  // The server watches every worker: it closes the sandbox records of dead ones, and removes the
  // sandbox directories of dead hosts it can see (a base directory shared with workers).
  const sandboxEvents = recordSandboxEvents(core.sandboxRuntime, composed.sandboxEvents, {
    hostId: core.hostId,
    logger: logger.child({ component: "sandbox-events" }),
    workers: composed.workers,
    ...(composed.bus && { bus: composed.bus }),
    closeDeadHostRecords: true,
  });
  await composed.engine.start();
  const workers = await composeServerWorkers(config, core);
  const backends = await composeServerBackends(config, core, workers);
  const batches = await composeServerBatches(config, core);
  core.gateway.follow(composed.engine);
  return { sandboxEvents, workers, backends, batches };
}

/**
 * The embedded default is one worker, "<hostname>:<pid>"; the monitor marks silent workers lost
 * and the engine restarts the unfinished jobs they held.
 */
function composeServerWorkers(config: ServerConfig, core: ServerCore): Promise<ComposedWorkers> {
  const { composed, inference } = core;
  // Progress goes out at once rather than at the next interval; bound once the heartbeat exists.
  let beatNow = () => {};
  const images = core.imageCache && composeImagePrefetcher(core.imageCache, () => beatNow());
  const workers = composeWorkers({
    ...config.workers,
    store: composed.workers,
    engine: composed.engine,
    sandboxRuntime: core.sandboxRuntime,
    workerId: core.hostId,
    ...(composed.bus && { bus: composed.bus, backends: () => inference.pool.listBackends() }),
    // No worker is marked lost for heartbeats a database outage kept from the store.
    storeHealth: composed.storeHealth,
    ...(images && { images }),
    logger: core.logger.child({ component: "workers" }),
  });
  return workers.then((started) => {
    beatNow = () => void started.heartbeat?.beat().catch(() => undefined);
    return started;
  });
}

/**
 * Distributed mode: what is registered, drained or removed through the API is kept in the store
 * (a restart gets it back) and applied by every worker; backends.list merges the workers' views.
 */
function composeServerBackends(
  config: ServerConfig,
  core: ServerCore,
  workers: ComposedWorkers,
): Promise<ComposedBackends> {
  const { composed } = core;
  return composeBackends({
    registry: core.inference.pool,
    shared: composed.bus
      ? {
          store: composed.backendRegistrations,
          bus: composed.bus,
          workers: composed.workers,
          selfWorkerId: workers.workerId,
          ...(config.workers?.heartbeatIntervalMs !== undefined && {
            syncIntervalMs: config.workers.heartbeatIntervalMs,
          }),
          ...(config.workers?.missedAfterMs !== undefined && { missedAfterMs: config.workers.missedAfterMs }),
        }
      : null,
    logger: core.logger.child({ component: "backends" }),
  });
}

/**
 * The server runs the deployment's one batch system: embedded, or as the control plane of
 * workers (they never do). After the engine, so that resumed steps find it running.
 */
function composeServerBatches(config: ServerConfig, core: ServerCore): Promise<ComposedBatches> {
  const { composed } = core;
  return composeBatches({
    engine: composed.engine,
    store: composed.batches,
    curriculum: composed.curriculum,
    gatewayCalls: composed.gatewayCalls,
    inference: core.inference.pool,
    bus: composed.bus,
    archive: composed.archive,
    environments: composed.environments,
    ...(config.retentionEveryMs !== undefined && { retentionEveryMs: config.retentionEveryMs }),
    logger: core.logger.child({ component: "batches" }),
  });
}
