import pg from "pg";
import { type PostgresConnection, quoteIdentifier } from "../client/postgres-connection";
import type { MigrationSession, MigrationTarget } from "./migration-target.types";

/**
 * Migrates one PostgreSQL schema over a dedicated connection. The exclusive lock is a
 * session-level advisory lock keyed by the schema name, so migrators in any number of processes
 * take turns; it is released when the connection closes, even if the process dies.
 */
export class PostgresMigrationTarget implements MigrationTarget {
  readonly kind = "postgres";
  readonly description: string;
  readonly #connection: PostgresConnection;

  constructor(connection: PostgresConnection) {
    this.#connection = connection;
    this.description = connection.description;
  }

  async withExclusiveSession<T>(fn: (session: MigrationSession) => Promise<T>): Promise<T> {
    const client = new pg.Client(this.#connection.config);
    // A connection that breaks fails the statement in flight; without a listener the client's
    // `error` event would end the process instead.
    client.on("error", () => {});
    await client.connect();
    try {
      await client.query("SELECT pg_advisory_lock(hashtext('raas.migrate'), hashtext($1))", [
        this.#connection.schema,
      ]);
      // Under the lock: two migrators creating the same schema at once would otherwise collide.
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(this.#connection.schema)}`);
      return await fn(sessionOf(client));
    } finally {
      // Closing the session releases the advisory lock.
      await client.end();
    }
  }
}

function sessionOf(client: pg.Client): MigrationSession {
  const session: MigrationSession = {
    async query<T extends Record<string, unknown>>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query<T>(sql, [...params]);
      return result.rows;
    },
    async exec(script) {
      // Without parameters `pg` uses the simple query protocol, which accepts several statements.
      await client.query(script);
    },
    async transaction(fn) {
      await client.query("BEGIN");
      try {
        await fn(session);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    },
  };
  return session;
}
