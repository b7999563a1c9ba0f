import type { TStage } from "@raas/shared";
import type { QueueConfig } from "../compose-engine";
import type { AgentHandlersOptions } from "../compose-handlers";
import type { InferenceConfig } from "../compose-inference";
import type { ModelFamilyConfig } from "../compose-model-family";
import type { SandboxConfig } from "../compose-sandbox";
import { chatFormatOfModel, type TRolloutHostEnv } from "./host-env";
import type { HostEnvFiles } from "./host-env-files";

/** What the host variables configure, in the shape the compose functions take. */
export interface RolloutHostConfig {
  queue: QueueConfig;
  /** Stage timeouts given in the environment (the engine's defaults for the others). */
  timeoutsMs: Partial<Record<TStage, number>>;
  inference: InferenceConfig;
  sandbox: SandboxConfig;
  agentHandlers: {
    swe?: AgentHandlersOptions["swe"];
    judge?: AgentHandlersOptions["judge"];
    harnessCacheDir?: string;
  };
  labels: string[];
  /** The policy model's family (agent handlers, gateway, token text), loaded at start by `loadModelFamily`. */
  model: ModelFamilyConfig;
}

/**
 * Maps the validated host variables, and the files they name (`loadHostEnvFiles`), onto the
 * compose functions' config — the one mapping the server and the worker share.
 */
export function rolloutHostConfigFromEnv(env: TRolloutHostEnv, files: HostEnvFiles = {}): RolloutHostConfig {
  if (env.RAAS_SWE_SPECS_FILE !== undefined && files.sweRepoSpecs === undefined) {
    // Ignoring the variable would run every instance without its setup; fail the caller instead.
    throw new Error(
      "RAAS_SWE_SPECS_FILE is set: pass the result of loadHostEnvFiles(env) (the server's loadServerEnvFiles) along",
    );
  }
  const timeoutsMs: Partial<Record<TStage, number>> = {
    ...(env.RAAS_INIT_TIMEOUT_MS !== undefined && { init: env.RAAS_INIT_TIMEOUT_MS }),
    ...(env.RAAS_RUN_TIMEOUT_MS !== undefined && { run: env.RAAS_RUN_TIMEOUT_MS }),
    ...(env.RAAS_EVAL_TIMEOUT_MS !== undefined && { eval: env.RAAS_EVAL_TIMEOUT_MS }),
  };
  return {
    queue: env.RAAS_QUEUE
      ? {
          kind: "redis",
          url: env.RAAS_QUEUE,
          ...(env.RAAS_QUEUE_PREFIX !== undefined && { prefix: env.RAAS_QUEUE_PREFIX }),
        }
      : { kind: "memory" },
    timeoutsMs,
    inference: {
      backends: env.RAAS_BACKENDS,
      defaultModelName: env.RAAS_MODEL,
      healthCheckIntervalMs: env.RAAS_BACKEND_HEALTH_INTERVAL_MS,
      ...(env.RAAS_INFERENCE_OUTAGE_BUDGET_MS !== undefined && {
        outageBudgetMs: env.RAAS_INFERENCE_OUTAGE_BUDGET_MS,
      }),
      ...(env.RAAS_FAIR_SHARE && { fairShare: {} }),
    },
    sandbox: {
      runtime: env.RAAS_SANDBOX_RUNTIME,
      searchPath: env.PATH,
      ...(env.RAAS_SANDBOX_DIR !== undefined && { baseDir: env.RAAS_SANDBOX_DIR }),
      ...(env.RAAS_SANDBOX_TOTAL_CPU_SEC !== undefined && {
        defaultLimits: { totalCpuSec: env.RAAS_SANDBOX_TOTAL_CPU_SEC },
      }),
      ...(env.RAAS_SANDBOX_WORKSPACE_BYTES !== undefined && {
        workspaceSizeBytes: env.RAAS_SANDBOX_WORKSPACE_BYTES,
      }),
      ...(env.RAAS_SANDBOX_WARM_POOL !== undefined && { warmPoolSize: env.RAAS_SANDBOX_WARM_POOL }),
      ...((env.RAAS_IMAGE_CACHE_DIR !== undefined || env.RAAS_IMAGE_CACHE_MAX_BYTES !== undefined) && {
        imageCache: {
          ...(env.RAAS_IMAGE_CACHE_DIR !== undefined && { dir: env.RAAS_IMAGE_CACHE_DIR }),
          ...(env.RAAS_IMAGE_CACHE_MAX_BYTES !== undefined && { maxBytes: env.RAAS_IMAGE_CACHE_MAX_BYTES }),
        },
      }),
    },
    agentHandlers: {
      ...(env.RAAS_HARNESS_CACHE !== undefined && { harnessCacheDir: env.RAAS_HARNESS_CACHE }),
      ...(env.RAAS_JUDGE_BACKENDS.length > 0 && { judge: { backends: env.RAAS_JUDGE_BACKENDS } }),
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
    labels: env.RAAS_WORKER_LABELS,
    model: modelFamilyOfEnv(env),
  };
}

function modelFamilyOfEnv(env: TRolloutHostEnv): ModelFamilyConfig {
  if (env.RAAS_TOKENIZER_DIR !== undefined)
    return { kind: "tokenizer-dir", directory: env.RAAS_TOKENIZER_DIR };
  return { kind: env.RAAS_CHAT_FORMAT ?? chatFormatOfModel(env.RAAS_MODEL) ?? "qwen3" };
}
