// The job store of `npm run bench -- gateway --store <kind>`: where the server records every gateway
// call before it answers (`memory`, the default; `pglite`, the embedded default of `npm start`;
// `postgres`, distributed mode, on a schema of its own dropped afterwards).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StoreConfig } from "@raas/compose";
import pg from "pg";

export type BenchStoreKind = "memory" | "pglite" | "postgres";

export interface BenchStore {
  config: StoreConfig;
  /**
   * The recorded calls and the bytes their rows take in the table (`pg_column_size`: after
   * PostgreSQL's compression, TOAST included); null where the bench cannot read the store
   * (memory, and PGlite, which the server's process holds).
   */
  measureCalls(): Promise<{ calls: number; bytes: number } | null>;
  /** Removes what the bench made (a data directory, a schema). */
  dispose(): Promise<void>;
}

const POSTGRES_URL = process.env.RAAS_BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export function readBenchStoreKind(value: string | undefined): BenchStoreKind {
  if (value === undefined || value === "memory" || value === "pglite" || value === "postgres") {
    return value ?? "memory";
  }
  throw new Error(`--store must be memory, pglite or postgres (got ${JSON.stringify(value)})`);
}

export async function prepareBenchStore(kind: BenchStoreKind): Promise<BenchStore> {
  const none = async () => null;
  if (kind === "memory") return { config: { kind: "memory" }, measureCalls: none, dispose: async () => {} };
  const dir = mkdtempSync(join(tmpdir(), "raas-bench-gateway-"));
  const removeDir = async () => rmSync(dir, { recursive: true, force: true });
  if (kind === "pglite") {
    return { config: { kind: "db", dataDir: join(dir, "data") }, measureCalls: none, dispose: removeDir };
  }
  const schema = `raas_bench_gateway_${process.pid}_${Date.now().toString(36)}`;
  const withClient = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  return {
    config: { kind: "db", dataDir: join(dir, "data"), databaseUrl: `${POSTGRES_URL}?schema=${schema}` },
    measureCalls: () =>
      withClient(async (client) => {
        const { rows } = await client.query<{ calls: string; bytes: string | null }>(
          `SELECT count(*) AS calls, sum(pg_column_size(g.*)) AS bytes FROM "${schema}".gateway_calls g`,
        );
        return { calls: Number(rows[0]?.calls ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
      }),
    async dispose() {
      await removeDir();
      await withClient((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    },
  };
}
