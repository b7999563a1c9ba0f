import {
  EnvError,
  parseEnvWith,
  ROLLOUT_HOST_ENV_SHAPE,
  rolloutHostConflicts,
  ZPositiveInt,
  ZStoreWaitMs,
} from "@raas/compose";
import { ZWorkerPoolsVariable } from "@raas/shared";
import { z } from "zod";

export { EnvError };

/** Default port of the worker's `/health` and `/metrics` (Prometheus' conventional exporter port). */
const DEFAULT_WORKER_METRICS_PORT = 9464;
/**
 * Default time a stopping worker gives its current jobs, in ms: with the engine's abort grace
 * (RAAS_SHUTDOWN_GRACE_MS, 10 s) it ends before the Slurm script's 240 s drain timeout and
 * systemd's `TimeoutStopSec=300` (`infra/`) kill it.
 */
const DEFAULT_WORKER_STOP_GRACE_MS = 225_000;

/** Default number of infrastructure sandbox start failures in a row before the worker probes (and may turn unhealthy). */
const DEFAULT_WORKER_SANDBOX_FAILURES = 3;
/** Default time between probe sandboxes of an unhealthy worker, in ms. */
const DEFAULT_WORKER_SANDBOX_PROBE_MS = 30_000;

/**
 * Every environment variable a worker reads: its own, and those of every process that runs
 * rollouts (`ROLLOUT_HOST_ENV_SHAPE`, shared with the server). The only place that reads `process.env`.
 */
const ZWorkerEnv = z.object({
  ...ROLLOUT_HOST_ENV_SHAPE,
  /**
   * Which stage pools this worker runs and their concurrency: `init=16,run=64,eval=16`, any
   * subset (a stage not named runs no pool here). Default: every pool at the engine's sizes.
   */
  RAAS_WORKER_POOLS: ZWorkerPoolsVariable,
  /** Port of `/health` and `/metrics`; 0 picks a free one. Default 9464. */
  RAAS_WORKER_METRICS_PORT: z.coerce
    .number({ error: "expected a number" })
    .int()
    .min(0)
    .max(65_535)
    .default(DEFAULT_WORKER_METRICS_PORT),
  /** Interface of `/health` and `/metrics`. Default 0.0.0.0, so Prometheus on another node can scrape it. */
  RAAS_WORKER_METRICS_HOST: z.string().trim().min(1).default("0.0.0.0"),
  /**
   * On SIGTERM (or a drain then stop) the worker takes no new job and gives the ones it holds
   * this long to finish, in ms; the rest are stopped and re-run elsewhere. Default 225_000.
   */
  RAAS_WORKER_STOP_GRACE_MS: z.coerce
    .number({ error: "expected a number" })
    .int()
    .min(0)
    .max(86_400_000)
    .default(DEFAULT_WORKER_STOP_GRACE_MS),
  /** How long a start waits for an unreachable PostgreSQL (DATABASE_URL), in ms; 0 does not. Default 60000. */
  RAAS_STORE_WAIT_MS: ZStoreWaitMs,
  /** Heartbeat interval in ms. Default the engine's (3_000); the server marks a worker lost after three missed. */
  RAAS_WORKER_HEARTBEAT_MS: ZPositiveInt(60_000).optional(),
  /**
   * Sandbox starts in a row that fail here for infrastructure reasons (not the policy's, not a
   * cancellation) before the worker starts a probe sandbox; if that fails too, the worker is
   * unhealthy: it takes no new INIT work and says why in `/health`, `/metrics` and `workers.list`.
   * Default 3.
   */
  RAAS_WORKER_SANDBOX_FAILURES: ZPositiveInt(10_000).default(DEFAULT_WORKER_SANDBOX_FAILURES),
  /** While unhealthy, how often a probe sandbox checks whether it can take work again, in ms. Default 30_000. */
  RAAS_WORKER_SANDBOX_PROBE_MS: ZPositiveInt(3_600_000).default(DEFAULT_WORKER_SANDBOX_PROBE_MS),
});
export type TWorkerEnv = z.infer<typeof ZWorkerEnv>;

/** Validates an environment; unknown variables are ignored. Throws `EnvError` naming each bad variable. */
export function parseWorkerEnv(source: Record<string, string | undefined>): TWorkerEnv {
  return parseEnvWith(ZWorkerEnv, source, (env) => {
    const conflicts = rolloutHostConflicts(env);
    // With RAAS_QUEUE set, the shared conflicts already say it needs DATABASE_URL.
    if (env.DATABASE_URL === undefined && env.RAAS_QUEUE === undefined) {
      conflicts.push(
        "DATABASE_URL: required — a worker must share the server's PostgreSQL database (postgres://…); the embedded PGlite lives inside the server's process",
      );
    }
    if (env.RAAS_QUEUE === undefined) {
      conflicts.push(
        "RAAS_QUEUE: required — the Redis the server's stage queues live on (redis://host:6379), the same value as the server's",
      );
    }
    if (env.RAAS_WORKER_POOLS && Object.values(env.RAAS_WORKER_POOLS).every((size) => size === 0)) {
      conflicts.push("RAAS_WORKER_POOLS: a worker runs at least one pool (init=…, run=… or eval=…)");
    }
    return conflicts;
  });
}

/** Reads and validates `process.env`. */
export function loadWorkerEnv(): TWorkerEnv {
  return parseWorkerEnv(process.env);
}
