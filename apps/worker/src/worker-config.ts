import {
  type HostEnvFiles,
  type InferenceConfig,
  type RolloutHostConfig,
  rolloutHostConfigFromEnv,
  type SandboxConfig,
} from "@raas/compose";
import type { EngineOptions } from "@raas/engine";
import { STAGES } from "@raas/shared";
import type { TWorkerEnv } from "./env";

/** Everything `startWorker` needs; `main.ts` builds it from the environment. */
export interface WorkerConfig {
  /** The PostgreSQL database the server uses (a worker never runs on PGlite). */
  databaseUrl: string;
  /** How long the start waits for an unreachable PostgreSQL, in ms (`RAAS_STORE_WAIT_MS`). */
  storeWaitMs?: number;
  /** The Redis of the server's stage queues and event bus. */
  queue: { url: string; prefix?: string };
  /** Pool sizes and timeouts per stage; a stage with concurrency 0 runs no pool here. */
  pools: NonNullable<EngineOptions["pools"]>;
  inference: InferenceConfig;
  sandbox: SandboxConfig;
  agentHandlers: RolloutHostConfig["agentHandlers"];
  /** The policy model's family (RAAS_TOKENIZER_DIR / RAAS_CHAT_FORMAT / RAAS_MODEL). */
  model: RolloutHostConfig["model"];
  /** Node labels shown by `workers.list`. */
  labels: string[];
  /** Heartbeat interval in ms. Default the engine's (3_000). */
  heartbeatIntervalMs?: number;
  /** `/health` and `/metrics`: port (0 picks one) and interface. */
  http: { port: number; host: string };
  /** How long a stopping worker gives the jobs it holds, in ms. */
  stopGraceMs: number;
  /** Running stages still going when the grace is over get this long after their abort, in ms. */
  abortGraceMs: number;
  /**
   * When the worker's own sandbox starts make it unhealthy: infrastructure failures in a row before
   * a probe decides, and the time between probes while unhealthy (ms).
   */
  sandboxHealth: { failuresBeforeProbe: number; probeIntervalMs: number };
  /** Worker id; default `<hostname>:<pid>`. */
  workerId?: string;
}

/** Maps the validated environment, and the files it names, onto the worker's config. */
export function workerConfigFromEnv(env: TWorkerEnv, files: HostEnvFiles = {}): WorkerConfig {
  const host = rolloutHostConfigFromEnv(env, files);
  if (host.queue.kind !== "redis" || env.DATABASE_URL === undefined) {
    // parseWorkerEnv refuses this environment; a caller that skipped it gets the same reason.
    throw new Error("a worker needs RAAS_QUEUE and DATABASE_URL (parse the environment with parseWorkerEnv)");
  }
  const pools: WorkerConfig["pools"] = {};
  for (const stage of STAGES) {
    pools[stage] = {
      ...(env.RAAS_WORKER_POOLS && { concurrency: env.RAAS_WORKER_POOLS[stage] }),
      ...(host.timeoutsMs[stage] !== undefined && { timeoutMs: host.timeoutsMs[stage] }),
    };
  }
  return {
    databaseUrl: env.DATABASE_URL,
    storeWaitMs: env.RAAS_STORE_WAIT_MS,
    queue: { url: host.queue.url, ...(host.queue.prefix !== undefined && { prefix: host.queue.prefix }) },
    pools,
    inference: host.inference,
    sandbox: host.sandbox,
    agentHandlers: host.agentHandlers,
    model: host.model,
    labels: host.labels,
    ...(env.RAAS_WORKER_HEARTBEAT_MS !== undefined && { heartbeatIntervalMs: env.RAAS_WORKER_HEARTBEAT_MS }),
    http: { port: env.RAAS_WORKER_METRICS_PORT, host: env.RAAS_WORKER_METRICS_HOST },
    stopGraceMs: env.RAAS_WORKER_STOP_GRACE_MS,
    abortGraceMs: env.RAAS_SHUTDOWN_GRACE_MS,
    sandboxHealth: {
      failuresBeforeProbe: env.RAAS_WORKER_SANDBOX_FAILURES,
      probeIntervalMs: env.RAAS_WORKER_SANDBOX_PROBE_MS,
    },
  };
}
