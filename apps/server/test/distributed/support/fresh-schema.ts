import { randomUUID } from "node:crypto";
import pg from "pg";

/** The PostgreSQL on this machine (CI and development have one on 127.0.0.1:5432, trust auth). */
export const TEST_DATABASE_URL =
  process.env.RAAS_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** A schema of the test's own: `databaseUrl` selects it (`?schema=`); `drop()` removes it. */
export interface FreshSchema {
  schema: string;
  databaseUrl: string;
  drop(): Promise<void>;
}

export function freshSchema(): FreshSchema {
  const schema = `raas_fault_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set("schema", schema);
  return {
    schema,
    databaseUrl: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/** The `raas` schema on a PostgreSQL server of the test's own; dropped with the server. */
export function privateSchema(server: { urlWithSchema(schema: string): string }): FreshSchema {
  return { schema: "raas", databaseUrl: server.urlWithSchema("raas"), async drop() {} };
}
