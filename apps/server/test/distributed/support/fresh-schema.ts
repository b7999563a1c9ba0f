import {
  dropSchema,
  freshSchemaName,
  TEST_DATABASE_URL,
} from "../../../../../packages/db/test/support/postgres-test-database";

/** A schema of the test's own: `databaseUrl` selects it (`?schema=`); `drop()` removes it. */
export interface FreshSchema {
  schema: string;
  databaseUrl: string;
  drop(): Promise<void>;
}

/** A fresh schema on the machine's PostgreSQL (`TEST_DATABASE_URL`). */
export function freshSchema(): FreshSchema {
  const schema = freshSchemaName();
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set("schema", schema);
  return { schema, databaseUrl: url.toString(), drop: () => dropSchema(schema) };
}

/** The `raas` schema on a PostgreSQL server of the test's own; dropped with the server. */
export function privateSchema(server: { urlWithSchema(schema: string): string }): FreshSchema {
  return { schema: "raas", databaseUrl: server.urlWithSchema("raas"), async drop() {} };
}
