import { createSecretRedactor, redactFields } from "@raas/shared";
import type { ApiLogger } from "../logger.types";

/**
 * Wraps a logger so that nothing the API logs carries a credential: the configured tokens by
 * value, and bearer headers, `token=`/`connectionParams=` values and URL passwords by shape.
 */
export function createRedactingLogger(
  logger: ApiLogger,
  secrets: ReadonlyArray<string | undefined>,
): ApiLogger {
  const redact = createSecretRedactor(secrets);
  const wrap =
    (level: "debug" | "info" | "warn" | "error") =>
    (fields: Record<string, unknown>, message: string): void => {
      // Redacting costs a walk over the fields: skipped for lines the logger drops anyway.
      if (logger.isLevelEnabled?.(level) === false) return;
      logger[level](redactFields(fields, redact), redact(message));
    };
  return {
    debug: wrap("debug"),
    info: wrap("info"),
    warn: wrap("warn"),
    error: wrap("error"),
    ...(logger.isLevelEnabled && {
      isLevelEnabled: (level: string) => logger.isLevelEnabled?.(level) ?? true,
    }),
  };
}
