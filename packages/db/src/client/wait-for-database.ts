import pg from "pg";
import type { DbLogger } from "../db-logger.types";
import { isDatabaseUnavailableError } from "./database-unavailable";
import { resolvePostgresConnection } from "./postgres-connection";

/** The first pause between two connection attempts, in ms; it doubles up to `MAX_PAUSE_MS`. */
const FIRST_PAUSE_MS = 250;
const MAX_PAUSE_MS = 5_000;
/** How long one attempt may take to connect: a host that drops packets must not hang the wait. */
const CONNECT_TIMEOUT_MS = 5_000;

export interface WaitForDatabaseOptions {
  /** How long to keep trying while the database is unreachable, in ms; 0 tries once. */
  maxWaitMs: number;
  logger?: DbLogger;
  /** Waits `ms` (tests may pass a faster one); default a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Resolves once the PostgreSQL of `databaseUrl` accepts a connection. A process started beside a
 * database that is still starting (a host boot, a restart for an upgrade, a failover) waits for
 * it with backoff for at most `maxWaitMs`, logging each failed attempt, then throws the last
 * connection error. Only a database that cannot be reached is waited for (`isDatabaseUnavailableError`):
 * a bad URL, a refused login or a missing database throws at once, since waiting cannot fix it.
 */
export async function waitForDatabase(databaseUrl: string, options: WaitForDatabaseOptions): Promise<void> {
  const { config } = resolvePostgresConnection(databaseUrl);
  const where = hostAndPort(databaseUrl);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = Date.now() + options.maxWaitMs;
  let pause = FIRST_PAUSE_MS;
  for (let attempt = 1; ; attempt += 1) {
    const client = new pg.Client({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    // A connection that breaks after connecting must not throw from an emitter nobody listens to.
    client.on("error", () => {});
    try {
      await client.connect();
      await client.end().catch(() => {});
      if (attempt > 1) options.logger?.info({ attempts: attempt }, `PostgreSQL at ${where} is reachable`);
      return;
    } catch (error) {
      await client.end().catch(() => {});
      const left = deadline - Date.now();
      if (!isDatabaseUnavailableError(error) || left <= 0) throw error;
      // No URL in the log: it may carry a password.
      options.logger?.warn(
        { attempt, err: (error as Error).message, waitedUpToMs: options.maxWaitMs },
        `waiting for PostgreSQL at ${where} (attempt ${attempt})`,
      );
      await sleep(Math.min(pause, left));
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    }
  }
}

function hostAndPort(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.hostname}:${url.port || "5432"}`;
}
