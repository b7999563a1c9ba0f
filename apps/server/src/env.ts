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

const ZPositiveInt = (max: number) => z.coerce.number({ error: "expected a number" }).int().min(1).max(max);

/**
 * Every environment variable the server reads. This is the only place that reads `process.env`.
 */
export const ZServerEnv = z.object({
  /** TCP port; 0 picks a free one. Default 8080. */
  PORT: z.coerce.number({ error: "expected a number" }).int().min(0).max(65_535).default(8080),
  /** Interface to bind. Default 127.0.0.1 (local only); 0.0.0.0 for every interface. */
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  /** PostgreSQL URL; when unset, the embedded PGlite store under RAAS_DATA_DIR is used. */
  DATABASE_URL: ZOptionalText.pipe(
    z.url({ protocol: /^postgres(ql)?$/, error: "expected a postgres:// or postgresql:// URL" }).optional(),
  ),
  /** Directory of embedded data (PGlite). Default ./.raas */
  RAAS_DATA_DIR: z.string().trim().min(1).default("./.raas"),
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
  RAAS_MAX_BODY_BYTES: ZPositiveInt(1_073_741_824).default(1_048_576),
  /** Grace period for running stages on shutdown, in ms. Default 10_000. */
  RAAS_SHUTDOWN_GRACE_MS: z.coerce
    .number({ error: "expected a number" })
    .int()
    .min(0)
    .max(600_000)
    .default(10_000),
  /**
   * Inference backends registered at start: comma-separated `[kind=]url[#model]` with kind
   * `vllm` (default), `sglang` or `nemo-rl`, e.g. `vllm=http://gpu-1:8000,http://gpu-2:8000`.
   * More can be registered at run time (`backends.register`). Default none.
   */
  RAAS_BACKENDS: ZBackendList,
  /** Model name of backends that name none, e.g. `Qwen/Qwen3-8B`. Default `Qwen/Qwen3-8B`. */
  RAAS_MODEL: z.string().trim().min(1).max(200).default("Qwen/Qwen3-8B"),
  /**
   * Chat template and tool-call format of the policy model. Default: derived from RAAS_MODEL
   * (a Qwen3 model name gives `qwen3`); required for a model name it cannot tell.
   */
  RAAS_CHAT_FORMAT: z.enum(["qwen3"], { error: "expected qwen3 (the only chat format so far)" }).optional(),
  /** Time between backend health checks (health endpoint + prefix-cache counters), in ms. Default 5_000. */
  RAAS_BACKEND_HEALTH_INTERVAL_MS: z.coerce
    .number({ error: "expected a number" })
    .int()
    .min(100)
    .max(3_600_000)
    .default(5_000),
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
  /** Sandbox runtime of the agent handlers: `bubblewrap` (default), `apptainer`, or `local` (no isolation, development only). */
  RAAS_SANDBOX_RUNTIME: z.enum(["bubblewrap", "apptainer", "local"]).default("bubblewrap"),
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
    if (parsed.data.RAAS_CHAT_FORMAT === undefined && chatFormatOfModel(parsed.data.RAAS_MODEL) === null) {
      throw new EnvError(
        `invalid environment:\n  RAAS_CHAT_FORMAT: required because RAAS_MODEL (got ${JSON.stringify(parsed.data.RAAS_MODEL)}) does not name a known model family; set RAAS_CHAT_FORMAT=qwen3 if the model speaks Qwen3's template`,
      );
    }
    return parsed.data;
  }
  const lines = parsed.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? "environment");
    const secret = /TOKEN|DATABASE_URL/.test(key);
    const got =
      source[key] === undefined ? "" : secret ? " (value hidden)" : ` (got ${JSON.stringify(source[key])})`;
    return `  ${key}: ${issue.message.replace(/^Invalid input:\s*/, "")}${got}`;
  });
  throw new EnvError(`invalid environment:\n${lines.join("\n")}`);
}

/** Reads and validates `process.env`. */
export function loadServerEnv(): TServerEnv {
  return parseServerEnv(process.env);
}
