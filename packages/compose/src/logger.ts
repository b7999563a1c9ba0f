import { createSecretRedactor } from "@raas/shared";
import { type DestinationStream, type Logger, pino } from "pino";

export interface RaasLoggerOptions {
  /** The `service` field of every line. Default `raas-server`. */
  service?: string;
  /** Token values to hide wherever they appear in a line (configured role tokens). Default none. */
  secrets?: ReadonlyArray<string | undefined>;
  /** Where lines go. Default stdout. */
  destination?: DestinationStream;
}

/**
 * JSON logs on stdout; every line carries `service` and, where known, `jobId`/`jobIds`. No line
 * carries a credential: authorization/token fields are censored by name, and every written line
 * is scrubbed of the configured tokens, bearer values, `token=`/`connectionParams=` values and
 * URL passwords, whichever component logged it.
 */
export function createRaasLogger(level: string, options: RaasLoggerOptions = {}): Logger {
  const redact = createSecretRedactor(options.secrets ?? []);
  return pino(
    {
      level,
      base: { service: options.service ?? "raas-server", pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          "authorization",
          "token",
          "connectionParams",
          "headers.authorization",
          "req.headers.authorization",
          "*.token",
          "*.connectionParams",
        ],
        censor: "[redacted]",
      },
      hooks: { streamWrite: redact },
    },
    options.destination,
  );
}
