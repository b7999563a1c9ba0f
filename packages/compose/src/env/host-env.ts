import { DEFAULT_STOP_GRACE_MS } from "@raas/engine";
import { DEFAULT_HEALTH_CHECK_INTERVAL_MS } from "@raas/inference";
import { DEFAULT_MODEL_NAME, ZWorkerLabelsVariable } from "@raas/shared";
import { z } from "zod";
import {
  ZAutoOrCount,
  ZBackendList,
  ZBooleanFlag,
  ZImagePatterns,
  ZJudgeBackendList,
  ZOptionalText,
  ZPositiveInt,
  ZPostgresUrl,
  ZRedisUrl,
} from "./env-fields";

/**
 * The variables of every process that runs rollouts — the server and `apps/worker` alike: the
 * store and queue they share, stage timeouts, inference backends, model, sandboxes, the swe
 * handler, labels and logging. Each app's `env.ts` spreads this shape into its own schema.
 */
export const ROLLOUT_HOST_ENV_SHAPE = {
  /** PostgreSQL URL; the server without it uses the embedded PGlite store under RAAS_DATA_DIR. */
  DATABASE_URL: ZPostgresUrl,
  /**
   * Distributed mode: the Redis of the stage queues and the event bus shared by the server and
   * every worker, `redis://[:password@]host:port[/db]`. Needs DATABASE_URL. Default none: the
   * embedded mode's in-process queue.
   */
  RAAS_QUEUE: ZRedisUrl,
  /** Prefix of every Redis key and channel, so deployments sharing a Redis stay apart. Default `raas`. */
  RAAS_QUEUE_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][\w.-]{0,63}$/, { error: "expected 1-64 letters, digits or _ . -" })
    .optional(),
  RAAS_INIT_TIMEOUT_MS: ZPositiveInt(86_400_000).optional(),
  RAAS_RUN_TIMEOUT_MS: ZPositiveInt(86_400_000).optional(),
  RAAS_EVAL_TIMEOUT_MS: ZPositiveInt(86_400_000).optional(),
  /** Grace period for running stages on shutdown, in ms. Default 10_000 (`DEFAULT_STOP_GRACE_MS`). */
  RAAS_SHUTDOWN_GRACE_MS: z.coerce
    .number({ error: "expected a number" })
    .int()
    .min(0)
    .max(600_000)
    .default(DEFAULT_STOP_GRACE_MS),
  /** Node labels of this process's worker, comma-separated (e.g. `apptainer,gpu-a100`). Default none. */
  RAAS_WORKER_LABELS: ZWorkerLabelsVariable,
  /**
   * Inference backends registered at start: comma-separated `[kind=]url[#model]` with kind
   * `vllm` (default), `sglang` or `nemo-rl`, e.g. `vllm=http://gpu-1:8000,http://gpu-2:8000`.
   * More can be registered at run time on the server (`backends.register`, that process only).
   * Default none.
   */
  RAAS_BACKENDS: ZBackendList,
  /**
   * Backends of the judge model that grades `judge` jobs: comma-separated `[kind=]url#model`
   * (`vllm` or `sglang`, served over `/v1/chat/completions`), e.g. `http://judge-1:8000#Qwen/Qwen3-32B`.
   * A pool of their own: the policy's turns never go there, judge calls go nowhere else. Default
   * none (`judge` jobs fail as `eval`, saying so).
   */
  RAAS_JUDGE_BACKENDS: ZJudgeBackendList,
  /** Model name of backends that name none, e.g. `Qwen/Qwen3-8B`. Default `Qwen/Qwen3-8B`. */
  RAAS_MODEL: z.string().trim().min(1).max(200).default(DEFAULT_MODEL_NAME),
  /**
   * Built-in chat format of the policy model: `qwen3` or `gpt-oss` (harmony). Default: derived from
   * RAAS_MODEL (a Qwen3 or gpt-oss model name); not needed with RAAS_TOKENIZER_DIR.
   */
  RAAS_CHAT_FORMAT: z
    .enum(["qwen3", "gpt-oss"], { error: "expected qwen3 or gpt-oss (or set RAAS_TOKENIZER_DIR instead)" })
    .optional(),
  /**
   * The policy model's tokenizer directory (`tokenizer.json`, `tokenizer_config.json` or
   * `chat_template.jinja`, `generation_config.json`: what vLLM loads), absolute: first prompts are
   * rendered with the model's own chat template and tool calls read in the format it uses. Any
   * model family works this way without code. Default none (RAAS_CHAT_FORMAT's built-in family).
   */
  RAAS_TOKENIZER_DIR: z.string().startsWith("/", { error: "expected an absolute path" }).optional(),
  /**
   * How long a turn rides out an outage of every backend it could use (connection refused, 502/503/504
   * while a server restarts) before it fails as `inference`, in ms; 0 fails at once. Default the
   * pool's `DEFAULT_OUTAGE_BUDGET_MS` (60_000).
   */
  RAAS_INFERENCE_OUTAGE_BUDGET_MS: z.coerce
    .number({ error: "expected a number" })
    .int({ error: "expected a whole number" })
    .min(0, { error: "expected at least 0" })
    .max(3_600_000, { error: "expected at most 3600000" })
    .optional(),
  /**
   * Fair sharing between training runs: new jobs are admitted to INIT by weighted fair queuing
   * (each run's `share`, its `priority` and `maxSandboxes`; the server), and the inference pool's
   * in-flight capacity is granted in weighted-fair order between runs (every process that runs
   * RUN). Default true.
   */
  RAAS_FAIR_SHARE: ZBooleanFlag.default(true),
  /** Time between backend health checks (health endpoint + prefix-cache counters), in ms. Default 5_000. */
  RAAS_BACKEND_HEALTH_INTERVAL_MS: z.coerce
    .number({ error: "expected a number" })
    .int()
    .min(100)
    .max(3_600_000)
    .default(DEFAULT_HEALTH_CHECK_INTERVAL_MS),
  /**
   * Directory of SWE repositories (`<owner>__<name>.bundle` or git mirrors) for the `swe` handler;
   * unset: no `swe` handler. `npm start` points it at the shipped fixture bundles.
   */
  RAAS_SWE_REPOS_DIR: ZOptionalText,
  /**
   * Host directory where `harness` jobs' recipes (Qwen Code, Claude Code, Codex, opencode) are
   * installed from npm, once per host, and mounted read-only into sandboxes; it must be searchable
   * by the sandboxes' uid. Default `<os.tmpdir()>/raas-harnesses`.
   */
  RAAS_HARNESS_CACHE: ZOptionalText,
  /**
   * Time budget of one SWE evaluation's test run in ms; past it the run is killed and reported as
   * `test_timeout`. Default: the swe handler's (900_000). `npm start` sets 20_000 for the fixtures.
   */
  RAAS_SWE_TEST_TIMEOUT_MS: ZPositiveInt(86_400_000).optional(),
  /**
   * JSON file of per-repository specs for the `swe` handler (setup commands, env, test command,
   * image; keys `owner/name` or `owner/name@version`; format in `packages/handlers/src/swe/README.md`).
   * Read once at start; a missing or invalid file stops the process. Needs RAAS_SWE_REPOS_DIR.
   * Default none.
   */
  RAAS_SWE_SPECS_FILE: ZOptionalText,
  /**
   * Per-instance environment image of the `swe` handler's sandboxes: an absolute path with
   * `{instance_id}`, `{repo}` (`owner__name`), `{owner}`, `{name}`, `{version}`, e.g.
   * `/images/swe/{repo}__{version}.sif`; several `:`-separated are tried in order. An instance
   * whose image does not exist fails as `eval`; a spec's `image` wins. Under bubblewrap an OCI or SIF
   * image is unpacked once into RAAS_IMAGE_CACHE_DIR. Needs RAAS_SWE_REPOS_DIR.
   * Default none (the runtime's image).
   */
  RAAS_SWE_IMAGE_PATTERN: ZImagePatterns,
  /** Sandbox runtime of the agent handlers: `bubblewrap` (default), `apptainer`, or `local` (no isolation, development only). */
  RAAS_SANDBOX_RUNTIME: z.enum(["bubblewrap", "apptainer", "local"]).default("bubblewrap"),
  /**
   * CPU seconds one sandbox may use in total (all its processes, measured by the host about every
   * 500 ms); over it the sandbox is closed as the policy's doing. Default none (each process is
   * still bound by the runtime's per-process CPU limit). Shown in `system.health` as `cpuTotal`.
   */
  RAAS_SANDBOX_TOTAL_CPU_SEC: ZPositiveInt(31_536_000).optional(),
  /**
   * Bytes one sandbox's workspace may occupy (a polled walk; also each tool process's
   * RLIMIT_FSIZE), e.g. 10737418240 for 10 GiB. Only the bubblewrap runtime enforces it. Default
   * 4 GiB (the runtime's `DEFAULT_WORKSPACE_SIZE_BYTES`). Shown in `system.health` as `disk`.
   */
  RAAS_SANDBOX_WORKSPACE_BYTES: ZPositiveInt(2 ** 50).optional(),
  /**
   * Sandboxes kept started ahead of demand, so INIT takes one instead of waiting for a cold start
   * — what makes a GRPO group's fork cheap: each member then only copies the group's prepared
   * workspace. Used by sandboxes that ask for no image, env or limits of their own; each idle one
   * costs one sandbox's memory. `auto` (the default when unset): none until a group forks, then
   * as many as the largest group since the pool was last idle (at most 16), refilled after each
   * take, closed after 5 minutes without one — a process that never runs groups starts none. A
   * number keeps that many from start-up on; 0 turns the pool off.
   */
  RAAS_SANDBOX_WARM_POOL: ZAutoOrCount(1_024).optional(),
  /**
   * Host directory of the per-sandbox directories (an absolute path under a world-searchable
   * directory such as /tmp). Processes that share it — workers on one node, or nodes sharing a
   * file system — remove the directories of hosts that died. Default `<tmpdir>/raas-sandboxes`.
   */
  RAAS_SANDBOX_DIR: ZOptionalText.pipe(
    z.string().startsWith("/", { error: "expected an absolute path" }).optional(),
  ),
  /**
   * Host directory where the bubblewrap runtime unpacks the images sandboxes name (an OCI layout
   * or archive, a docker save archive, a SIF — e.g. through RAAS_SWE_IMAGE_PATTERN), keyed by
   * content and shared by every process given the same directory; an absolute path the
   * sandboxes' uid can search. Default `<tmpdir>/raas-image-cache`.
   */
  RAAS_IMAGE_CACHE_DIR: ZOptionalText.pipe(
    z.string().startsWith("/", { error: "expected an absolute path" }).optional(),
  ),
  /**
   * Bytes of unpacked images kept in RAAS_IMAGE_CACHE_DIR; beyond it the least recently used ones
   * no sandbox holds are removed. Default 21474836480 (20 GiB, the image cache's).
   */
  RAAS_IMAGE_CACHE_MAX_BYTES: ZPositiveInt(2 ** 50).optional(),
  /** Where the sandbox runtime looks for bwrap/apptainer/prlimit. Default the usual system directories. */
  PATH: z.string().default("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
};

const ZRolloutHostEnv = z.object(ROLLOUT_HOST_ENV_SHAPE);
export type TRolloutHostEnv = z.infer<typeof ZRolloutHostEnv>;

/** The built-in chat format of a model name, or null when the name does not tell. */
export function chatFormatOfModel(modelName: string): "qwen3" | "gpt-oss" | null {
  if (/qwen-?3/i.test(modelName)) return "qwen3";
  return /gpt-?oss/i.test(modelName) ? "gpt-oss" : null;
}

/** Host variables that are valid alone but not together with the rest; one line each. */
export function rolloutHostConflicts(env: TRolloutHostEnv): string[] {
  const conflicts: string[] = [];
  if (env.RAAS_SWE_REPOS_DIR === undefined) {
    for (const key of ["RAAS_SWE_SPECS_FILE", "RAAS_SWE_IMAGE_PATTERN"] as const) {
      if (env[key] !== undefined)
        conflicts.push(`${key}: needs RAAS_SWE_REPOS_DIR (without it there is no swe handler to configure)`);
    }
  }
  if (env.RAAS_SANDBOX_WORKSPACE_BYTES !== undefined && env.RAAS_SANDBOX_RUNTIME !== "bubblewrap") {
    conflicts.push(
      `RAAS_SANDBOX_WORKSPACE_BYTES: only the bubblewrap runtime bounds the workspace (RAAS_SANDBOX_RUNTIME is ${env.RAAS_SANDBOX_RUNTIME})`,
    );
  }
  for (const key of ["RAAS_IMAGE_CACHE_DIR", "RAAS_IMAGE_CACHE_MAX_BYTES"] as const) {
    if (env[key] !== undefined && env.RAAS_SANDBOX_RUNTIME !== "bubblewrap") {
      conflicts.push(
        `${key}: only the bubblewrap runtime unpacks images into the cache (RAAS_SANDBOX_RUNTIME is ${env.RAAS_SANDBOX_RUNTIME})`,
      );
    }
  }
  if (env.RAAS_QUEUE !== undefined && env.DATABASE_URL === undefined) {
    conflicts.push(
      "RAAS_QUEUE: distributed mode needs DATABASE_URL=postgres://… — the server and every worker must share one PostgreSQL database (the embedded PGlite lives inside one process)",
    );
  }
  if (env.RAAS_CHAT_FORMAT !== undefined && env.RAAS_TOKENIZER_DIR !== undefined) {
    conflicts.push(
      "RAAS_CHAT_FORMAT: set it or RAAS_TOKENIZER_DIR, not both (the tokenizer directory's own template is the chat format)",
    );
  }
  const isFamilyKnown =
    env.RAAS_CHAT_FORMAT !== undefined ||
    env.RAAS_TOKENIZER_DIR !== undefined ||
    chatFormatOfModel(env.RAAS_MODEL) !== null;
  if (!isFamilyKnown) {
    conflicts.push(
      `RAAS_TOKENIZER_DIR: required because RAAS_MODEL (got ${JSON.stringify(env.RAAS_MODEL)}) does not name a built-in model family; set it to the model's tokenizer directory (the files vLLM loads), or RAAS_CHAT_FORMAT=qwen3|gpt-oss`,
    );
  }
  return conflicts;
}
