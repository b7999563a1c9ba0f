import { isNetworkError } from "@raas/engine";

/**
 * SQLSTATEs of a server that is going away or not accepting connections yet: class 08
 * (connection exception) and `admin_shutdown`, `crash_shutdown`, `cannot_connect_now`.
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123])$/;
/** Prisma's codes for a server it cannot reach or that closed the connection; a pool timeout. */
const UNAVAILABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
/** Driver adapter error kinds for the same (`DriverAdapterError.cause.kind`). */
const UNAVAILABLE_ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);
/** `pg`'s messages for a connection that broke or could not be had (they carry no code). */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|is not queryable|timeout exceeded when trying to connect|Can't reach database server|Server has closed the connection|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to (administrator command|crash of another server process)/i;

/**
 * True when `error` means the database cannot be reached right now — its server stopped,
 * restarts, fails over or cut the connection — as opposed to a statement the database refused.
 * Looks through the `cause` chain and Prisma's wrappers (`meta.driverAdapterError`).
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  if (isNetworkError(error)) return true;
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0 && seen.size < 16) {
    const current = pending.pop();
    if (current === null || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const { code, originalCode, kind, message, cause, meta } = current as Record<string, unknown>;
    if (typeof code === "string" && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_PRISMA_CODES.has(code)))
      return true;
    if (typeof originalCode === "string" && UNAVAILABLE_SQLSTATE.test(originalCode)) return true;
    if (typeof kind === "string" && UNAVAILABLE_ADAPTER_KINDS.has(kind)) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message)) return true;
    pending.push(cause, meta, (meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError);
  }
  return false;
}
