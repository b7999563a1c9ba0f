import { randomBytes } from "node:crypto";
import pg from "pg";

/** The PostgreSQL the integration tests use; override with RAAS_TEST_DATABASE_URL. */
export const TEST_DATABASE_URL =
  process.env.RAAS_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/**
 * Fails (never skips) with instructions when PostgreSQL cannot be reached: the store must be
 * tested against the real thing.
 */
export async function requirePostgres(): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${TEST_DATABASE_URL} (${(error as Error).message}). ` +
        "Start it with `node scripts/ensure-services.mjs` (or `pg_ctlcluster 15 main start`); " +
        "on a bare machine install it first: `apt-get install -y postgresql`, then allow trust auth " +
        "for 127.0.0.1 in pg_hba.conf. Set RAAS_TEST_DATABASE_URL to use another server.",
      { cause: error },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A schema name no other test run uses. */
export function freshSchemaName(): string {
  return `raas_test_${randomBytes(6).toString("hex")}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
