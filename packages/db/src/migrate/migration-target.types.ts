/** One database session the migrator drives. Implemented for PostgreSQL (`pg`) and PGlite. */
export interface MigrationSession {
  /** Runs one statement with `$1…` parameters and returns its rows. */
  query<T extends Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements (no parameters). */
  exec(script: string): Promise<void>;
  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  transaction(fn: (tx: MigrationSession) => Promise<void>): Promise<void>;
}

/** Where migrations are applied. */
export interface MigrationTarget {
  readonly kind: "pglite" | "postgres";
  /** A label for logs (never contains a password). */
  readonly description: string;
  /**
   * Runs `fn` holding a lock that excludes every other migrator of the same database and
   * schema, in this or any other process.
   */
  withExclusiveSession<T>(fn: (session: MigrationSession) => Promise<T>): Promise<T>;
}
