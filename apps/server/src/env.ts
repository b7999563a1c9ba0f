import {
  parseEnvWith,
  ROLLOUT_HOST_ENV_SHAPE,
  rolloutHostConflicts,
  ZBooleanFlag,
  ZOptionalText,
  ZPositiveInt,
  ZStoreWaitMs,
} from "@raas/compose";
import {
  DEFAULT_DATA_DIR,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_SERVER_HOST,
  DEFAULT_SERVER_PORT,
  ZAllowedHostsVariable,
  ZWorkerPoolsVariable,
} from "@raas/shared";
import { z } from "zod";

export { EnvError } from "@raas/compose";

/**
 * Every environment variable the server reads: its own, and those of every process that runs
 * rollouts (`ROLLOUT_HOST_ENV_SHAPE` of `@raas/compose`, shared with `apps/worker`). This is the
 * only place that reads `process.env`.
 */
const ZServerEnv = z.object({
  /** TCP port; 0 picks a free one. Default 8080 (`DEFAULT_SERVER_PORT`). */
  PORT: z.coerce.number({ error: "expected a number" }).int().min(0).max(65_535).default(DEFAULT_SERVER_PORT),
  /** Interface to bind. Default 127.0.0.1 (local only); 0.0.0.0 for every interface. */
  HOST: z.string().trim().min(1).default(DEFAULT_SERVER_HOST),
  /**
   * Host names the server answers for besides localhost, 127.0.0.1, [::1], IP addresses and —
   * when HOST is 0.0.0.0 or :: — the machine's host name; comma-separated, `.domain` for
   * subdomains, `*` for any. Other `Host` headers get 403 (DNS rebinding). Default none.
   */
  RAAS_ALLOWED_HOSTS: ZAllowedHostsVariable,
  /** Directory of embedded data (PGlite). Default ./.raas */
  RAAS_DATA_DIR: z.string().trim().min(1).default(DEFAULT_DATA_DIR),
  /** `db` (PGlite or PostgreSQL) or `memory` (nothing survives a restart). Default db. */
  RAAS_STORE: z.enum(["memory", "db"]).default("db"),
  /**
   * Embedded store (PGlite) only: checkpoint once this many MiB of write-ahead log were written
   * since the last checkpoint (PGlite has no checkpointer; pg_wal stays near 1.5× this). Default 64.
   */
  RAAS_PGLITE_CHECKPOINT_WAL_MB: ZPositiveInt(65_536).optional(),
  /** Embedded store only: vacuum and analyze every this many ms (PGlite has no autovacuum). Default 600000. */
  RAAS_PGLITE_VACUUM_EVERY_MS: ZPositiveInt(86_400_000).optional(),
  /** How long a start waits for an unreachable PostgreSQL (DATABASE_URL), in ms; 0 does not. Default 60000. */
  RAAS_STORE_WAIT_MS: ZStoreWaitMs,
  /** How often training runs' retention policies (`retention` of a run) are applied, in ms. Default 60000. */
  RAAS_RETENTION_EVERY_MS: ZPositiveInt(86_400_000).optional(),
  RAAS_ADMIN_TOKEN: ZOptionalText,
  RAAS_TRAINER_TOKEN: ZOptionalText,
  /**
   * More trainer tokens, comma-separated: one per experiment or team sharing the service. A
   * training run belongs to the token that created it; writes to it need that token or admin.
   */
  RAAS_TRAINER_TOKENS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((token) => token.trim())
        .filter((token) => token.length > 0),
    ),
  /**
   * With fair sharing: a job of a higher-priority run that waited this long (ms) for an INIT or
   * RUN slot preempts a lower-priority job in that stage (re-queued, not counted as an attempt).
   * Default: no preemption.
   */
  RAAS_PREEMPT_AFTER_MS: ZPositiveInt(86_400_000).optional(),
  RAAS_VIEWER_TOKEN: ZOptionalText,
  /**
   * When true, reads need a viewer (or stronger) token, and a trainer token reads only its own
   * work's training data (job exports and trajectories, batch exports, gateway traces, a step's
   * handed-out groups): one tenant cannot read another's. Viewer and admin tokens read everything.
   * Default false: the embedded service (`npm start`) is one researcher's, listening on loopback,
   * and its dashboard and CLI read without a token; turn it on when several trainers share a
   * service that others can reach.
   */
  RAAS_REQUIRE_VIEWER_TOKEN: ZBooleanFlag.default(false),
  RAAS_INIT_CONCURRENCY: ZPositiveInt(100_000).optional(),
  RAAS_RUN_CONCURRENCY: ZPositiveInt(100_000).optional(),
  RAAS_EVAL_CONCURRENCY: ZPositiveInt(100_000).optional(),
  /**
   * The server's own stage pools, as `RAAS_WORKER_POOLS`: `init=16,run=64,eval=16` (a stage not
   * named runs no pool here), or `none` / `0` for an API-only server in distributed mode. Default:
   * every pool, sized by RAAS_*_CONCURRENCY or the engine's defaults.
   */
  RAAS_SERVER_POOLS: ZWorkerPoolsVariable,
  /** Largest request body in bytes. Default 1 MiB. */
  RAAS_MAX_BODY_BYTES: ZPositiveInt(1_073_741_824).default(DEFAULT_MAX_BODY_BYTES),
  /** Most live subscriptions (SSE streams) in total; past it 503 with retry-after. Default 256. */
  RAAS_MAX_SUBSCRIBERS: ZPositiveInt(1_000_000).optional(),
  /** Most live subscriptions per token (tokenless readers: per client address). Default 32. */
  RAAS_MAX_SUBSCRIBERS_PER_TOKEN: ZPositiveInt(1_000_000).optional(),
  ...ROLLOUT_HOST_ENV_SHAPE,
});
export type TServerEnv = z.infer<typeof ZServerEnv>;

/** Validates an environment; unknown variables are ignored. Throws `EnvError` naming each bad variable. */
export function parseServerEnv(source: Record<string, string | undefined>): TServerEnv {
  return parseEnvWith(ZServerEnv, source, conflictsOf);
}

/** Variables that are valid alone but not together with the rest. */
function conflictsOf(env: TServerEnv): string[] {
  const conflicts = rolloutHostConflicts(env);
  if (env.RAAS_QUEUE !== undefined && env.RAAS_STORE === "memory") {
    conflicts.push(
      "RAAS_STORE: distributed mode (RAAS_QUEUE) needs the db store on DATABASE_URL, not memory",
    );
  }
  if (env.RAAS_SERVER_POOLS !== undefined) {
    for (const key of ["RAAS_INIT_CONCURRENCY", "RAAS_RUN_CONCURRENCY", "RAAS_EVAL_CONCURRENCY"] as const) {
      if (env[key] !== undefined)
        conflicts.push(`${key}: RAAS_SERVER_POOLS sets the pools; give the size there`);
    }
  }
  return conflicts;
}

/** Reads and validates `process.env`. */
export function loadServerEnv(): TServerEnv {
  return parseServerEnv(process.env);
}
