import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type SpawnedWorker, spawnWorker } from "../../../worker/test/support/spawn-worker";
import { configFromEnv } from "../../src/config-from-env";
import { parseServerEnv } from "../../src/env";
import { type RunningServer, startServer } from "../../src/server";
import { freshDistributedServices } from "./distributed-services";

/** Where rollouts run: in the server (embedded) or in a worker process beside an API-only server. */
export type RolloutMode = "embedded" | "distributed";

export interface RolloutDeployment {
  /** Base URL of the server's API. */
  url: string;
  /** Sticky jobs per backend of the inference pool that ran the rollouts (the worker's when distributed). */
  stickyJobs(): Promise<number[]>;
  close(): Promise<void>;
}

/**
 * Starts the server for `mode` with the environment `env` (the same variables the worker gets)
 * and `trainerToken`. Embedded: one process, memory queue, bubblewrap sandboxes under a fresh
 * directory. Distributed: the server API-only (no pools) on a fresh PostgreSQL schema and Redis
 * key prefix, and one worker process (apps/worker) running every pool.
 */
export async function startRolloutDeployment(
  mode: RolloutMode,
  env: Record<string, string>,
  trainerToken: string,
): Promise<RolloutDeployment> {
  const fromEnv = configFromEnv(parseServerEnv(env));
  const common = {
    port: 0,
    logLevel: "silent",
    auth: { trainerToken },
    ...(fromEnv.inference ? { inference: fromEnv.inference } : {}),
    ...(fromEnv.agentHandlers !== undefined ? { agentHandlers: fromEnv.agentHandlers } : {}),
  };
  const sandboxDir = mkdtempSync(join(tmpdir(), "raas-server-rollouts-"));
  if (mode === "embedded") {
    const server = await startServer({ ...common, sandbox: { runtime: "bubblewrap", baseDir: sandboxDir } });
    return {
      url: server.url,
      stickyJobs: async () => server.inference.listBackends().map((backend) => backend.stickyJobs),
      async close() {
        await server.close({ graceMs: 100 });
        rmSync(sandboxDir, { recursive: true, force: true });
      },
    };
  }
  const services = freshDistributedServices();
  let server: RunningServer | null = null;
  let worker: SpawnedWorker | null = null;
  const close = async () => {
    await worker?.stop();
    await server?.close({ graceMs: 100 });
    await services.remove();
    rmSync(sandboxDir, { recursive: true, force: true });
  };
  try {
    server = await startServer({
      ...common,
      store: { kind: "db", dataDir: sandboxDir, databaseUrl: services.databaseUrl },
      queue: { kind: "redis", url: services.redisUrl, prefix: services.prefix },
      pools: { init: { concurrency: 0 }, run: { concurrency: 0 }, eval: { concurrency: 0 } },
    });
    worker = await spawnWorker({
      ...env,
      DATABASE_URL: services.databaseUrl,
      RAAS_QUEUE: services.redisUrl,
      RAAS_QUEUE_PREFIX: services.prefix,
    });
  } catch (error) {
    await close();
    throw error;
  }
  const httpUrl = worker.httpUrl;
  return {
    url: server.url,
    async stickyJobs() {
      const metrics = await (await fetch(`${httpUrl}/metrics`)).text();
      return [...metrics.matchAll(/^raas_backend_sticky_jobs\{[^}]*\} (\d+)$/gm)].map((m) => Number(m[1]));
    },
    close,
  };
}
