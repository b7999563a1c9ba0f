import { type Logger, pino } from "pino";

/** JSON logs on stdout; every line carries `service` and, where known, `jobId`/`jobIds`. */
export function createServerLogger(level: string): Logger {
  return pino({
    level,
    base: { service: "raas-server", pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ["authorization", "req.headers.authorization", "*.token"], censor: "[redacted]" },
  });
}
