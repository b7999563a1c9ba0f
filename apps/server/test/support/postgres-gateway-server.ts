// A server on a fresh PostgreSQL schema that can be stopped and started again over the same data,
// with an in-process simulator (the labelled test double for a GPU model) as its only backend and
// no agent handlers: for the gateway's call records, which must outlive a server process.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "@raas/simulator";
import pg from "pg";
import { type RunningServer, startServer } from "../../src/server";

const DATABASE_URL = process.env.RAAS_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export interface PostgresGatewayServers {
  /** The schema's name (for direct SQL: `"<schema>".gateway_calls`). */
  schema: string;
  databaseUrl: string;
  simulator: RunningSimulator;
  /** Starts a server over the schema (again after a restart: the same data). */
  start(): Promise<RunningServer>;
  /** Closes the simulator, removes the data directory and drops the schema. */
  dispose(): Promise<void>;
}

export async function preparePostgresGatewayServers(
  name: string,
  policy: SimulatorOptions["policy"],
): Promise<PostgresGatewayServers> {
  const schema = `raas_test_${name}_${process.pid}_${Date.now().toString(36)}`;
  const dir = mkdtempSync(join(tmpdir(), `raas-${name}-`));
  const simulator = await startSimulator({ policy, latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 } });
  return {
    schema,
    databaseUrl: DATABASE_URL,
    simulator,
    start: () =>
      startServer({
        port: 0,
        logLevel: "silent",
        agentHandlers: false,
        store: { kind: "db", dataDir: join(dir, "data"), databaseUrl: `${DATABASE_URL}?schema=${schema}` },
        inference: { backends: [{ kind: "vllm" as const, baseUrl: simulator.url, modelName: null }] },
      }),
    async dispose() {
      await simulator.close();
      rmSync(dir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}
