import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { MigrationSession, MigrationTarget } from "./migration-target.types";

/**
 * Migrates a PGlite database. PGlite is single-connection and its data directory belongs to one
 * process, so the exclusive lock is an in-process queue on the instance.
 */
export class PgliteMigrationTarget implements MigrationTarget {
  readonly kind = "pglite";
  readonly description: string;
  readonly #db: PGlite;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(db: PGlite, description = "pglite") {
    this.#db = db;
    this.description = description;
  }

  withExclusiveSession<T>(fn: (session: MigrationSession) => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => fn(sessionOf(this.#db)));
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

function sessionOf(db: PGlite | Transaction): MigrationSession {
  return {
    async query<T extends Record<string, unknown>>(sql: string, params: readonly unknown[] = []) {
      const result = await db.query<T>(sql, [...params]);
      return result.rows;
    },
    async exec(script) {
      await db.exec(script);
    },
    async transaction(fn) {
      if (!("transaction" in db)) {
        await fn(sessionOf(db));
        return;
      }
      await db.transaction(async (tx) => {
        await fn(sessionOf(tx));
      });
    },
  };
}
