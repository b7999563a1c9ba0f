import type pg from "pg";

/** How to reach one PostgreSQL schema. */
export interface PostgresConnection {
  /** `pg` client/pool settings; every session's `search_path` is the schema. */
  config: pg.ClientConfig;
  schema: string;
  /** For logs: host, port, database and schema, never the password. */
  description: string;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/**
 * Resolves a database URL plus an optional schema. A Prisma-style `?schema=` parameter in the
 * URL is honoured (and removed, `pg` would send it to the server) unless `schema` is given.
 * Default schema: `public`.
 */
export function resolvePostgresConnection(databaseUrl: string, schema?: string): PostgresConnection {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new Error("databaseUrl is not a valid URL (expected postgresql://user@host:5432/database)");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new Error(`databaseUrl must start with postgresql:// (got ${url.protocol}//)`);
  }
  const urlSchema = url.searchParams.get("schema") ?? undefined;
  url.searchParams.delete("schema");
  const resolved = schema ?? urlSchema ?? "public";
  if (!SCHEMA_NAME.test(resolved)) {
    throw new Error(`schema "${resolved}" is not a plain identifier (letters, digits, _ and $; at most 63)`);
  }
  const database = url.pathname.replace(/^\//, "") || "(default)";
  return {
    config: { connectionString: url.toString(), options: `-c search_path=${quoteIdentifier(resolved)}` },
    schema: resolved,
    description: `postgres ${url.hostname}:${url.port || "5432"}/${database} schema ${resolved}`,
  };
}

/** `name` as a quoted SQL identifier. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
