import { z } from "zod";

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
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});
export type TServerEnv = z.infer<typeof ZServerEnv>;

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
  if (parsed.success) return parsed.data;
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
