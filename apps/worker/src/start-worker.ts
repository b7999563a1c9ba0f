import {
  type ComposedWorkers,
  composeAgentHandlers,
  composeBackends,
  composeEngine,
  composeInference,
  composeSandboxRuntime,
  composeWorkers,
  createRaasLogger,
  defaultSandboxHostId,
  recordSandboxEvents,
} from "@raas/compose";
import type { RolloutEngine, StoreHealthState } from "@raas/engine";
import { fanOutPolicy, followPolicy } from "@raas/training";
import type { Logger } from "pino";
import { HealthConditions } from "./health-conditions";
import { waitUntilIdle } from "./idle";
import { SandboxHealthWatch } from "./sandbox-health-watch";
import type { WorkerConfig } from "./worker-config";
import { startWorkerGateway } from "./worker-gateway";
import { startWorkerHttp, type WorkerHttp } from "./worker-http";

/** How often a worker re-applies the stored policy state (weight version, pause), in ms. */
const POLICY_RELOAD_INTERVAL_MS = 5_000;

export type WorkerState = "running" | "draining" | "stopping" | "stopped";

export interface RunningWorker {
  /** This worker's id in the store (`workers.list`), `<hostname>:<pid>` by default. */
  id: string;
  engine: RolloutEngine;
  workers: ComposedWorkers;
  /** What this worker's health depends on (`/health`, `/metrics`). */
  conditions: HealthConditions;
  /** Base URL of `/health` and `/metrics`. */
  httpUrl: string;
  state(): WorkerState;
  /**
   * Drains (no new job starts here; the stored record says draining), waits up to `graceMs`
   * (default the config's `stopGraceMs`) for the jobs this worker holds to finish, then closes.
   * Idempotent; `close()` during the wait stops at once.
   */
  drainAndStop(options?: { graceMs?: number }): Promise<void>;
  /** Stops now: running stages get the abort grace, then everything is closed. Idempotent. */
  close(): Promise<void>;
}

/**
 * Composes a worker — the engine on the shared PostgreSQL store and the Redis stage queues and
 * bus, the sandbox runtime, the agent handlers, the inference pool — registers it, and serves
 * `/health` and `/metrics`. The same compose functions as the server's (`@raas/compose`).
 */
export async function startWorker(
  config: WorkerConfig,
  given?: Logger,
  hooks: { onStoppedAsLost?: () => void } = {},
): Promise<RunningWorker> {
  const logger = given ?? createRaasLogger("info", { service: "raas-worker" });
  const workerId = config.workerId ?? defaultSandboxHostId();
  const inference = composeInference(config.inference, logger.child({ component: "inference" }));
  const sandboxRuntime = composeSandboxRuntime(config.sandbox, logger.child({ component: "sandbox" }), {
    requireInstalled: true,
    hostId: workerId,
  });
  const conditions = new HealthConditions();
  // Set once the engine and the registration exist; sickness needs a failed job start first.
  let onSandboxHealth: {
    suspect: () => void;
    sick: (reason: string) => void;
    recovered: () => void;
  } | null = null;
  const sandboxHealth = new SandboxHealthWatch({
    runtime: sandboxRuntime,
    ...config.sandboxHealth,
    onSuspect: () => onSandboxHealth?.suspect(),
    onSick: (reason) => onSandboxHealth?.sick(reason),
    onRecovered: () => onSandboxHealth?.recovered(),
    logger: logger.child({ component: "sandbox-health" }),
  });
  // Before the handlers: the `harness` handler bridges this worker's sandboxes to it.
  const gateway = await startWorkerGateway({
    pool: inference.pool,
    modelName: inference.defaultModelName,
    logger: logger.child({ component: "gateway" }),
  });
  const agentHandlers = composeAgentHandlers({
    // The jobs' starts are watched: a worker whose sandboxes keep failing stops taking work.
    sandboxRuntime: sandboxHealth.runtime,
    inference: inference.pool,
    chatFormat: config.agentHandlers.chatFormat,
    ...(config.agentHandlers.swe && { swe: config.agentHandlers.swe }),
    harnessGateway: gateway.harnessGateway,
    logger: logger.child({ component: "handlers" }),
  });
  const composed = await composeEngine({
    store: {
      kind: "db",
      databaseUrl: config.databaseUrl,
      dataDir: "",
      ...(config.storeWaitMs !== undefined && { waitMs: config.storeWaitMs }),
    },
    queue: { kind: "redis", ...config.queue },
    pools: config.pools,
    handlers: agentHandlers.handlers,
    inference: inference.pool,
    workerId,
    // INIT items come back from the control plane, which knows the jobs its admission holds back.
    requeueStagesOnRestore: ["run", "eval"],
    logger: logger.child({ component: "engine" }),
  }).catch(async (error: unknown) => {
    // Its listener would keep the process alive after the failed start.
    await gateway.close();
    throw error;
  });
  gateway.useCallStore(composed.gatewayCalls);
  // A job's session token stops working when the job ends (its events reach every worker).
  gateway.composed.follow(composed.engine);
  // Weight syncs reach this worker's own inference pool: the stored policy state at start (and
  // every few seconds, making up for a lost bus message), then each change from the bus.
  const policy = composed.bus
    ? await followPolicy({
        bus: composed.bus,
        // The pool gates generation; the engine holds RUN budgets while paused.
        sink: fanOutPolicy(inference.pool, composed.engine),
        load: () => composed.batches.listPolicyStates(),
        reloadIntervalMs: POLICY_RELOAD_INTERVAL_MS,
        onError: (error) => logger.warn({ err: error }, "applying the policy state failed"),
      })
    : null;
  // Removes the sandbox directories of dead hosts from the base directory (shared by the workers
  // of a node, or by nodes); the server closes their records.
  const sandboxEvents = recordSandboxEvents(sandboxRuntime, composed.sandboxEvents, {
    hostId: workerId,
    logger: logger.child({ component: "sandbox-events" }),
    workers: composed.workers,
    ...(composed.bus && { bus: composed.bus }),
  });
  // Backends registered, drained or removed through the API reach this pool: what is stored now
  // (before the first job), then each change (bus, and every heartbeat interval).
  const backends = await composeBackends({
    registry: inference.pool,
    shared: {
      store: composed.backendRegistrations,
      bus: composed.bus,
      ...(config.heartbeatIntervalMs !== undefined && { syncIntervalMs: config.heartbeatIntervalMs }),
    },
    logger: logger.child({ component: "backends" }),
  });
  await composed.engine.start();
  const workers = await composeWorkers({
    store: composed.workers,
    engine: composed.engine,
    sandboxRuntime,
    workerId,
    labels: config.labels,
    ...(config.heartbeatIntervalMs !== undefined && { heartbeatIntervalMs: config.heartbeatIntervalMs }),
    ...(composed.bus && { bus: composed.bus }),
    // The control plane merges these into backends.list.
    backends: () => inference.pool.listBackends(),
    // The server watches every worker; a worker only reports on itself.
    monitor: false,
    // Beats at once when the database is back after an outage.
    storeHealth: composed.storeHealth,
    unhealthyReason: () => conditions.unhealthyReason(),
    onSelfLost: () => {
      // Its jobs were restarted elsewhere and the monitor never recovers an id twice: a worker
      // that went on would hold jobs nobody recovers if it died later. Stop; a supervisor starts a
      // new worker (a new id).
      logger.error({ workerId }, "this worker was marked lost (silent too long): stopping");
      void close().then(() => hooks.onStoppedAsLost?.());
    },
    logger: logger.child({ component: "workers" }),
  });
  // A database outage is ridden out here (writes held and retried, jobs and sandboxes kept): the
  // worker says so, but it is no reason to stop taking work.
  const reportStore = (store: StoreHealthState) =>
    conditions.report("store", { ok: store.available, reason: store.reason, stopsWork: false });
  reportStore(composed.storeHealth.state());
  const unsubscribeStore = composed.storeHealth.onChange(reportStore);
  let state: WorkerState = "running";
  // Suspect (a probe runs) or sick: no new INIT here (jobs already started finish); the INIT
  // retry lands on other workers. One gate with drain and stop: INIT opens when no reason holds.
  const holdInit = () => workers.initGate.hold("sandboxes");
  onSandboxHealth = {
    suspect: holdInit,
    sick: (reason) => {
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
  const sickAlready = sandboxHealth.reason();
  if (sickAlready !== null) onSandboxHealth.sick(sickAlready);
  const http: WorkerHttp = await startWorkerHttp({
    ...config.http,
    engine: composed.engine,
    inference: inference.pool,
    workerId,
    conditions,
    storeHealth: composed.storeHealth,
    state: () => (state === "running" && workers.heartbeat?.status === "draining" ? "draining" : state),
  });
  logger.info(
    {
      workerId,
      pools: config.pools,
      labels: config.labels,
      http: http.url,
      handlers: composed.engine.handlerKinds(),
    },
    "worker started",
  );

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      state = "stopping";
      unsubscribeStore();
      sandboxHealth.close();
      await composed.engine.stop({ graceMs: config.abortGraceMs });
      await gateway.close();
      await workers.close();
      await backends.close();
      await sandboxRuntime.closeAll();
      await sandboxEvents.close();
      await agentHandlers.close();
      await policy?.stop();
      await inference.close();
      await composed.close();
      await http.close();
      state = "stopped";
      logger.info({ workerId }, "worker stopped");
    })();
    return closing;
  };
  let draining: Promise<void> | null = null;
  const drainAndStop = (options: { graceMs?: number } = {}) => {
    draining ??= (async () => {
      if (closing) return closing;
      state = "draining";
      workers.initGate.hold("stopping");
      await composed.workers
        .setDraining(workerId, true)
        .catch((error: unknown) =>
          logger.warn({ err: error, workerId }, "could not mark this worker draining"),
        );
      const graceMs = options.graceMs ?? config.stopGraceMs;
      logger.info({ workerId, graceMs }, "draining: no new jobs; waiting for the jobs held here");
      const idle = await waitUntilIdle(composed.engine, graceMs, () => closing !== null);
      if (!idle) logger.warn({ workerId, graceMs }, "grace period over: stopping the jobs still held here");
      await close();
    })();
    return draining;
  };

  return {
    id: workerId,
    engine: composed.engine,
    workers,
    conditions,
    httpUrl: http.url,
    state: () => state,
    drainAndStop,
    close,
  };
}
