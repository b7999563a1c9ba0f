import { type ComposedWorkers, createRaasLogger, defaultSandboxHostId } from "@raas/compose";
import type { RolloutEngine } from "@raas/engine";
import type { Logger } from "pino";
import type { HealthConditions } from "./health-conditions";
import { composeWorkerEngine } from "./start/compose-worker-engine";
import { composeWorkerHost } from "./start/compose-worker-host";
import { followWorkerState } from "./start/follow-worker-state";
import { registerWorker } from "./start/register-worker";
import { serveWorkerHttp } from "./start/serve-worker-http";
import { WorkerLifecycle } from "./start/worker-lifecycle";
import type { WorkerConfig } from "./worker-config";

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
  const host = await composeWorkerHost(config, logger, workerId);
  const composed = await composeWorkerEngine(config, host);
  const followers = await followWorkerState(config, host, composed);
  const registration = await registerWorker(config, host, composed, () => {
    void lifecycle.close().then(() => hooks.onStoppedAsLost?.());
  });
  const lifecycle = new WorkerLifecycle(config, { host, composed, followers, registration });
  const http = await serveWorkerHttp(config, host, composed, registration, lifecycle);
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
  return {
    id: workerId,
    engine: composed.engine,
    workers: registration.workers,
    conditions: host.conditions,
    httpUrl: http.url,
    state: () => lifecycle.state(),
    drainAndStop: (options) => lifecycle.drainAndStop(options),
    close: () => lifecycle.close(),
  };
}
