/** pino-compatible structured logger; the API never writes to stdout itself. */
export interface ApiLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
  /** False when lines of `level` are dropped (pino's); then a wrapper need not prepare them. */
  isLevelEnabled?(level: string): boolean;
}

/** Discards everything; the default when no logger is given. */
export const silentLogger: ApiLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
