import { chatFormatOfModel, type TServerEnv } from "./env";
import type { ServerEnvFiles } from "./env-files";
import type { ServerConfig } from "./server";

/**
 * Maps the validated environment, and the files it names (`loadServerEnvFiles`), onto the
 * server's config.
 */
export function configFromEnv(env: TServerEnv, files: ServerEnvFiles = {}): ServerConfig {
  if (env.RAAS_SWE_SPECS_FILE !== undefined && files.sweRepoSpecs === undefined) {
    // Ignoring the variable would run every instance without its setup; fail the caller instead.
    throw new Error(
      "RAAS_SWE_SPECS_FILE is set: pass the result of loadServerEnvFiles(env) to configFromEnv",
    );
  }
  const pool = (concurrency: number | undefined, timeoutMs: number | undefined) => ({
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
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
          },
    auth: {
      ...(env.RAAS_ADMIN_TOKEN ? { adminToken: env.RAAS_ADMIN_TOKEN } : {}),
      ...(env.RAAS_TRAINER_TOKEN ? { trainerToken: env.RAAS_TRAINER_TOKEN } : {}),
      ...(env.RAAS_VIEWER_TOKEN ? { viewerToken: env.RAAS_VIEWER_TOKEN } : {}),
      requireViewerToken: env.RAAS_REQUIRE_VIEWER_TOKEN,
    },
    pools: {
      init: pool(env.RAAS_INIT_CONCURRENCY, env.RAAS_INIT_TIMEOUT_MS),
      run: pool(env.RAAS_RUN_CONCURRENCY, env.RAAS_RUN_TIMEOUT_MS),
      eval: pool(env.RAAS_EVAL_CONCURRENCY, env.RAAS_EVAL_TIMEOUT_MS),
    },
    inference: {
      backends: env.RAAS_BACKENDS,
      defaultModelName: env.RAAS_MODEL,
      healthCheckIntervalMs: env.RAAS_BACKEND_HEALTH_INTERVAL_MS,
      ...(env.RAAS_INFERENCE_OUTAGE_BUDGET_MS !== undefined && {
        outageBudgetMs: env.RAAS_INFERENCE_OUTAGE_BUDGET_MS,
      }),
    },
    sandbox: {
      runtime: env.RAAS_SANDBOX_RUNTIME,
      searchPath: env.PATH,
      ...(env.RAAS_SANDBOX_TOTAL_CPU_SEC !== undefined && {
        defaultLimits: { totalCpuSec: env.RAAS_SANDBOX_TOTAL_CPU_SEC },
      }),
      ...(env.RAAS_SANDBOX_WORKSPACE_BYTES !== undefined && {
        workspaceSizeBytes: env.RAAS_SANDBOX_WORKSPACE_BYTES,
      }),
    },
    agentHandlers: {
      chatFormat: env.RAAS_CHAT_FORMAT ?? chatFormatOfModel(env.RAAS_MODEL) ?? "qwen3",
      ...(env.RAAS_SWE_REPOS_DIR
        ? {
            swe: {
              reposDir: env.RAAS_SWE_REPOS_DIR,
              ...(env.RAAS_SWE_TEST_TIMEOUT_MS !== undefined && {
                testTimeoutMs: env.RAAS_SWE_TEST_TIMEOUT_MS,
              }),
              ...(files.sweRepoSpecs !== undefined && { repoSpecs: files.sweRepoSpecs }),
              ...(env.RAAS_SWE_IMAGE_PATTERN !== undefined && { imagePattern: env.RAAS_SWE_IMAGE_PATTERN }),
            },
          }
        : {}),
    },
    allowedHosts: env.RAAS_ALLOWED_HOSTS,
    maxBodyBytes: env.RAAS_MAX_BODY_BYTES,
    subscribers: {
      ...(env.RAAS_MAX_SUBSCRIBERS !== undefined && { maxSubscribers: env.RAAS_MAX_SUBSCRIBERS }),
      ...(env.RAAS_MAX_SUBSCRIBERS_PER_TOKEN !== undefined && {
        maxSubscribersPerToken: env.RAAS_MAX_SUBSCRIBERS_PER_TOKEN,
      }),
    },
    shutdownGraceMs: env.RAAS_SHUTDOWN_GRACE_MS,
    workers: { labels: env.RAAS_WORKER_LABELS },
  };
}
