import { isAbsolute } from "node:path";
import { expandImagePattern, parseSweInstance } from "@raas/handlers";
import { z } from "zod";
import { type BackendSeed, parseBackendList } from "../backend-list.parser";
import { parseJudgeBackendList } from "../compose-judge";

/** `true/false/1/0/yes/no`, case-insensitive. */
export const ZBooleanFlag = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(["true", "false", "1", "0", "yes", "no"], { error: "expected true or false" }))
  .transform((value) => value === "true" || value === "1" || value === "yes");

/** Trimmed text; empty means unset. */
export const ZOptionalText = z
  .string()
  .trim()
  .transform((value) => (value.length === 0 ? undefined : value))
  .optional();

/** A whole number from 1 to `max`; each way to miss says which. */
export const ZPositiveInt = (max: number) =>
  z.coerce
    .number({ error: "expected a number" })
    .int({ error: "expected a whole number" })
    .min(1, { error: "expected at least 1" })
    .max(max, { error: `expected at most ${max}` });

/** Default of `RAAS_STORE_WAIT_MS`: how long a start waits for an unreachable PostgreSQL, in ms. */
export const DEFAULT_STORE_WAIT_MS = 60_000;

/**
 * `RAAS_STORE_WAIT_MS`: how long a process starting while its PostgreSQL (DATABASE_URL) cannot be
 * reached waits for it, with backoff, before it exits; 0 does not wait. Default 60000.
 */
export const ZStoreWaitMs = z.coerce
  .number({ error: "expected a number" })
  .int({ error: "expected a whole number" })
  .min(0, { error: "expected at least 0" })
  .max(3_600_000, { error: "expected at most 3600000" })
  .default(DEFAULT_STORE_WAIT_MS);

/** `auto` or a whole number from 0 to `max` (a warm pool's size: 0 is off). */
export const ZAutoOrCount = (max: number) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .transform((text, ctx) => {
      if (text === "auto") return "auto" as const;
      const count = text === "" ? Number.NaN : Number(text);
      if (Number.isInteger(count) && count >= 0 && count <= max) return count;
      ctx.addIssue({ code: "custom", message: `expected auto or a whole number from 0 to ${max}` });
      return z.NEVER;
    });

/** `RAAS_BACKENDS`: `[kind=]url[#model]`, comma-separated; empty means none. */
export const ZBackendList = z
  .string()
  .optional()
  .transform((text, ctx): BackendSeed[] => {
    const { seeds, problems } = parseBackendList(text ?? "");
    for (const problem of problems) ctx.addIssue({ code: "custom", message: problem });
    return seeds;
  });

/** `RAAS_JUDGE_BACKENDS`: `[kind=]url#model`, comma-separated; empty means none. */
export const ZJudgeBackendList = z
  .string()
  .optional()
  .transform((text, ctx) => {
    const { backends, problems } = parseJudgeBackendList(text ?? "");
    for (const problem of problems) ctx.addIssue({ code: "custom", message: problem });
    return backends;
  });

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
 * empty means none. One pattern stays a string, several become the list tried in order. A pattern
 * may name an OCI layout's tag (`/images/layout:{instance_id}`): only a `:` before a `/` (the next
 * absolute path) separates patterns, and a tag never starts with `/`.
 */
export const ZImagePatterns = z
  .string()
  .optional()
  .transform((text, ctx): string | string[] | undefined => {
    const patterns = (text ?? "")
      .split(/:(?=\s*\/)/)
      .map((pattern) => pattern.trim().replace(/:+$/, "").trim())
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

/** `RAAS_QUEUE`: the Redis of distributed mode, `redis://[:password@]host:port[/db]` (or `rediss://`). */
export const ZRedisUrl = ZOptionalText.pipe(
  z.url({ protocol: /^rediss?$/, error: "expected a redis:// or rediss:// URL" }).optional(),
);

/** `DATABASE_URL`: a PostgreSQL URL. */
export const ZPostgresUrl = ZOptionalText.pipe(
  z.url({ protocol: /^postgres(ql)?$/, error: "expected a postgres:// or postgresql:// URL" }).optional(),
);
