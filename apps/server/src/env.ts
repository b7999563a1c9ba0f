import { isAbsolute } from "node:path";
import { DEFAULT_STOP_GRACE_MS } from "@raas/engine";
import { expandImagePattern, parseSweInstance } from "@raas/handlers";
import { DEFAULT_HEALTH_CHECK_INTERVAL_MS } from "@raas/inference";
import {
  DEFAULT_DATA_DIR,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MODEL_NAME,
  DEFAULT_SERVER_HOST,
  DEFAULT_SERVER_PORT,
  formatIssue,
  ZAllowedHostsVariable,
  ZWorkerLabelsVariable,
} from "@raas/shared";
import { z } from "zod";
import { type BackendSeed, parseBackendList } from "./backend-list.parser";

/** `true/false/1/0/yes/no`, case-insensitive. */
const ZBooleanFlag = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(["true", "false", "1", "0", "yes", "no"], { error: "expected true or false" }))
  .transform((value) => value === "true" || value === "1" || value === "yes");

const ZOptionalText = z
  .string()
  .trim()
  .transform((value) => (value.length === 0 ? undefined : value))
  .optional();

/** `RAAS_BACKENDS`: `[kind=]url[#model]`, comma-separated; empty means none. */
const ZBackendList = z
  .string()
  .optional()
  .transform((text, ctx): BackendSeed[] => {
    const { seeds, problems } = parseBackendList(text ?? "");
    for (const problem of problems) ctx.addIssue({ code: "custom", message: problem });
    return seeds;
  });

/** A whole number from 1 to `max`; each way to miss says which. */
const ZPositiveInt = (max: number) =>
  z.coerce
    .number({ error: "expected a number" })
    .int({ error: "expected a whole number" })
    .min(1, { error: "expected at least 1" })
    .max(max, { error: `expected at most ${max}` });

/** An instance with every placeholder filled, to try image patterns on at start. */
const PROBE_INSTANCE = parseSweInstance({
  instance_id: "owner__name-1",
  repo: "owner/name",
  base_commit: "0".repeat(40),
  problem_statement: "probe",
  version: "1.0",
});

/**
 * `RAAS_SWE_IMAGE_PATTERN`: absolute paths with placeholders, `:`-separated like PATH; unset or
 * empty means none. One pattern stays a string, several become the list tried in order.
 */
const ZImagePatterns = z
  .string()
  .optional()
  .transform((text, ctx): string | string[] | undefined => {
    const patterns = (text ?? "")
      .split(":")
      .map((pattern) => pattern.trim())
      .filter((pattern) => pattern.length > 0);
    for (const pattern of patterns) {
      if (!isAbsolute(pattern))
        ctx.addIssue({ code: "custom", message: `"${pattern}": expected an absolute path` });
      try {
        expandImagePattern(pattern, PROBE_INSTANCE);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
      }
    }
    if (patterns.length === 0) return undefined;
    return patterns.length === 1 ? patterns[0] : patterns;
  });

/**
 * Every environment variable the server reads. This is the only place that reads `process.env`.
 */
export const ZServerEnv = z.object({
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
  /** PostgreSQL URL; when unset, the embedded PGlite store under RAAS_DATA_DIR is used. */
  DATABASE_URL: ZOptionalText.pipe(
    z.url({ protocol: /^postgres(ql)?$/, error: "expected a postgres:// or postgresql:// URL" }).optional(),
  ),
  /** Directory of embedded data (PGlite). Default ./.raas */
  RAAS_DATA_DIR: z.string().trim().min(1).default(DEFAULT_DATA_DIR),
  /** `db` (PGlite or PostgreSQL) or `memory` (nothing survives a restart). Default db. */
  RAAS_STORE: z.enum(["memory", "db"]).default("db"),
  RAAS_ADMIN_TOKEN: ZOptionalText,
  RAAS_TRAINER_TOKEN: ZOptionalText,
  RAAS_VIEWER_TOKEN: ZOptionalText,
  /** When true, reads need a viewer (or stronger) token. Default false. */
  RAAS_REQUIRE_VIEWER_TOKEN: ZBooleanFlag.default(false),
  RAAS_INIT_CONCURRENCY: ZPositiveInt(100_000).optional(),
  RAAS_RUN_CONCURRENCY: ZPositiveInt(100_000).optional(),
  RAAS_EVAL_CONCURRENCY: ZPositiveInt(100_000).optional(),
  RAAS_INIT_TIMEOUT_MS: ZPositiveInt(86_400_000).optional(),
  RAAS_RUN_TIMEOUT_MS: ZPositiveInt(86_400_000).optional(),
  RAAS_EVAL_TIMEOUT_MS: ZPositiveInt(86_400_000).optional(),
  /** Largest request body in bytes. Default 1 MiB. */
  RAAS_MAX_BODY_BYTES: ZPositiveInt(1_073_741_824).default(DEFAULT_MAX_BODY_BYTES),
  /** Most live subscriptions (SSE streams) in total; past it 503 with retry-after. Default 256. */
  RAAS_MAX_SUBSCRIBERS: ZPositiveInt(1_000_000).optional(),
  /** Most live subscriptions per token (tokenless readers: per client address). Default 32. */
  RAAS_MAX_SUBSCRIBERS_PER_TOKEN: ZPositiveInt(1_000_000).optional(),
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
   * More can be registered at run time (`backends.register`). Default none.
   */
  RAAS_BACKENDS: ZBackendList,
  /** Model name of backends that name none, e.g. `Qwen/Qwen3-8B`. Default `Qwen/Qwen3-8B`. */
  RAAS_MODEL: z.string().trim().min(1).max(200).default(DEFAULT_MODEL_NAME),
  /**
   * Chat template and tool-call format of the policy model. Default: derived from RAAS_MODEL
   * (a Qwen3 model name gives `qwen3`); required for a model name it cannot tell.
   */
  RAAS_CHAT_FORMAT: z.enum(["qwen3"], { error: "expected qwen3 (the only chat format so far)" }).optional(),
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
   * Time budget of one SWE evaluation's test run in ms; past it the run is killed and reported as
   * `test_timeout`. Default: the swe handler's (900_000). `npm start` sets 20_000 for the fixtures.
   */
  RAAS_SWE_TEST_TIMEOUT_MS: ZPositiveInt(86_400_000).optional(),
  /**
   * JSON file of per-repository specs for the `swe` handler (setup commands, env, test command,
   * image; keys `owner/name` or `owner/name@version`; format in `packages/handlers/src/swe/README.md`).
   * Read once at start; a missing or invalid file stops the server. Needs RAAS_SWE_REPOS_DIR.
   * Default none.
   */
  RAAS_SWE_SPECS_FILE: ZOptionalText,
  /**
   * Per-instance environment image of the `swe` handler's sandboxes: an absolute path with
   * `{instance_id}`, `{repo}` (`owner__name`), `{owner}`, `{name}`, `{version}`, e.g.
   * `/images/swe/{repo}__{version}.sif`; several `:`-separated are tried in order. An instance
   * whose image does not exist fails as `eval`; a spec's `image` wins. Needs RAAS_SWE_REPOS_DIR.
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
   * none. Shown in `system.health` as `disk`.
   */
  RAAS_SANDBOX_WORKSPACE_BYTES: ZPositiveInt(2 ** 50).optional(),
  /** Where the sandbox runtime looks for bwrap/apptainer/prlimit. Default the usual system directories. */
  PATH: z.string().default("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});
export type TServerEnv = z.infer<typeof ZServerEnv>;

/** The chat format of a model name, or null when the name does not tell. */
export function chatFormatOfModel(modelName: string): "qwen3" | null {
  return /qwen-?3/i.test(modelName) ? "qwen3" : null;
}

/** Thrown for an invalid environment; the message lists every bad variable. */
export class EnvError extends Error {
  override readonly name = "EnvError";
}

/** Validates an environment; unknown variables are ignored. */
export function parseServerEnv(source: Record<string, string | undefined>): TServerEnv {
  const relevant = Object.fromEntries(
    Object.keys(ZServerEnv.shape)
      .filter((key) => source[key] !== undefined)
      .map((key) => [key, source[key]]),
  );
  const parsed = ZServerEnv.safeParse(relevant);
  if (parsed.success) {
    const conflicts = conflictsOf(parsed.data);
    if (conflicts.length > 0)
      throw new EnvError(`invalid environment:\n${conflicts.map((line) => `  ${line}`).join("\n")}`);
    if (parsed.data.RAAS_CHAT_FORMAT === undefined && chatFormatOfModel(parsed.data.RAAS_MODEL) === null) {
      throw new EnvError(
        `invalid environment:\n  RAAS_CHAT_FORMAT: required because RAAS_MODEL (got ${JSON.stringify(parsed.data.RAAS_MODEL)}) does not name a known model family; set RAAS_CHAT_FORMAT=qwen3 if the model speaks Qwen3's template`,
      );
    }
    return parsed.data;
  }
  const lines = parsed.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? "environment");
    const secret = /TOKEN|DATABASE_URL|RAAS_BACKENDS/.test(key); // RAAS_BACKENDS problems name their entry
    const got =
      source[key] === undefined ? "" : secret ? " (value hidden)" : ` (got ${JSON.stringify(source[key])})`;
    return `  ${formatIssue(issue, { root: "environment" })}${got}`;
  });
  throw new EnvError(`invalid environment:\n${lines.join("\n")}`);
}

/** Variables that are valid alone but not together with the rest. */
function conflictsOf(env: TServerEnv): string[] {
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
  return conflicts;
}

/** Reads and validates `process.env`. */
export function loadServerEnv(): TServerEnv {
  return parseServerEnv(process.env);
}
