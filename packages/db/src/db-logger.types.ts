/** pino-compatible structured logger; packages/db never writes to stdout itself. */
export interface DbLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}
