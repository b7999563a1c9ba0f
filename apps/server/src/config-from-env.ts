import { type HostEnvFiles, rolloutHostConfigFromEnv } from "@raas/compose";
import type { TStage } from "@raas/shared";
import type { TServerEnv } from "./env";
import type { ServerConfig } from "./server";

/**
 * Maps the validated environment, and the files it names (`loadServerEnvFiles`), onto the
 * server's config.
 */
export function configFromEnv(env: TServerEnv, files: HostEnvFiles = {}): ServerConfig {
  // Throws when RAAS_SWE_SPECS_FILE is set but its file was not read: ignoring it would run every
  // instance without its setup.
  const host = rolloutHostConfigFromEnv(env, files);
  const concurrency: Record<TStage, number | undefined> = env.RAAS_SERVER_POOLS ?? {
    init: env.RAAS_INIT_CONCURRENCY,
    run: env.RAAS_RUN_CONCURRENCY,
    eval: env.RAAS_EVAL_CONCURRENCY,
  };
  const pool = (stage: TStage) => ({
    ...(concurrency[stage] !== undefined && { concurrency: concurrency[stage] }),
    ...(host.timeoutsMs[stage] !== undefined && { timeoutMs: host.timeoutsMs[stage] }),
  });
  return {
    port: env.PORT,
    host: env.HOST,
    store:
      env.RAAS_STORE === "memory"
        ? { kind: "memory" }
        : {
            kind: "db",
            dataDir: env.RAAS_DATA_DIR,
            ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
            waitMs: env.RAAS_STORE_WAIT_MS,
            pgliteMaintenance: {
              ...(env.RAAS_PGLITE_CHECKPOINT_WAL_MB !== undefined && {
                checkpointAfterWalBytes: env.RAAS_PGLITE_CHECKPOINT_WAL_MB * 1024 * 1024,
              }),
              ...(env.RAAS_PGLITE_VACUUM_EVERY_MS !== undefined && {
                vacuumEveryMs: env.RAAS_PGLITE_VACUUM_EVERY_MS,
              }),
            },
          },
    queue: host.queue,
    auth: {
      ...(env.RAAS_ADMIN_TOKEN ? { adminToken: env.RAAS_ADMIN_TOKEN } : {}),
      ...(env.RAAS_TRAINER_TOKEN ? { trainerToken: env.RAAS_TRAINER_TOKEN } : {}),
      ...(env.RAAS_TRAINER_TOKENS.length > 0 ? { trainerTokens: env.RAAS_TRAINER_TOKENS } : {}),
      ...(env.RAAS_VIEWER_TOKEN ? { viewerToken: env.RAAS_VIEWER_TOKEN } : {}),
      requireViewerToken: env.RAAS_REQUIRE_VIEWER_TOKEN,
    },
    pools: { init: pool("init"), run: pool("run"), eval: pool("eval") },
    ...(env.RAAS_FAIR_SHARE && {
      fairShare: {
        ...(env.RAAS_PREEMPT_AFTER_MS !== undefined && { preemptAfterMs: env.RAAS_PREEMPT_AFTER_MS }),
      },
    }),
    inference: host.inference,
    sandbox: host.sandbox,
    agentHandlers: host.agentHandlers,
    model: host.model,
    allowedHosts: env.RAAS_ALLOWED_HOSTS,
    maxBodyBytes: env.RAAS_MAX_BODY_BYTES,
    subscribers: {
      ...(env.RAAS_MAX_SUBSCRIBERS !== undefined && { maxSubscribers: env.RAAS_MAX_SUBSCRIBERS }),
      ...(env.RAAS_MAX_SUBSCRIBERS_PER_TOKEN !== undefined && {
        maxSubscribersPerToken: env.RAAS_MAX_SUBSCRIBERS_PER_TOKEN,
      }),
    },
    shutdownGraceMs: env.RAAS_SHUTDOWN_GRACE_MS,
    ...(env.RAAS_RETENTION_EVERY_MS !== undefined && { retentionEveryMs: env.RAAS_RETENTION_EVERY_MS }),
    workers: { labels: host.labels },
  };
}
