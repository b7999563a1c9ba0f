import { formatIssue } from "@raas/shared";
import type { z } from "zod";

/** Thrown for an invalid environment; the message lists every bad variable. */
export class EnvError extends Error {
  override readonly name = "EnvError";
}

/** Variables whose values never appear in an error (credentials, URLs with passwords). */
const SECRET_KEYS = /TOKEN|DATABASE_URL|RAAS_QUEUE$|RAAS_(JUDGE_)?BACKENDS/; // RAAS_BACKENDS problems name their entry

/**
 * Validates an environment against an app's schema (unknown variables are ignored), then its
 * cross-variable `conflicts`. Throws `EnvError` listing every bad variable, one line each, with
 * the value given unless it may hold a secret.
 */
export function parseEnvWith<TSchema extends z.ZodObject>(
  schema: TSchema,
  source: Record<string, string | undefined>,
  conflicts: (env: z.infer<TSchema>) => string[],
): z.infer<TSchema> {
  const relevant = Object.fromEntries(
    Object.keys(schema.shape)
      .filter((key) => source[key] !== undefined)
      .map((key) => [key, source[key]]),
  );
  const parsed = schema.safeParse(relevant);
  if (parsed.success) {
    const lines = conflicts(parsed.data);
    if (lines.length > 0)
      throw new EnvError(`invalid environment:\n${lines.map((line) => `  ${line}`).join("\n")}`);
    return parsed.data;
  }
  const lines = parsed.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? "environment");
    const got =
      source[key] === undefined
        ? ""
        : SECRET_KEYS.test(key)
          ? " (value hidden)"
          : ` (got ${JSON.stringify(source[key])})`;
    return `  ${formatIssue(issue, { root: "environment" })}${got}`;
  });
  throw new EnvError(`invalid environment:\n${lines.join("\n")}`);
}
