import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { freshDistributedServices } from "../../apps/server/test/support/distributed-services";
import { type SpawnedWorker, spawnWorker } from "../../apps/worker/test/support/spawn-worker";
import { startProcess, waitForHttp } from "./child-process";
import { E2E_TOKENS, type E2EMode } from "./e2e-env";
import { freePort } from "./free-port";
import { SWE_REPOS_DIR } from "./harness-jobs";
import { startSimulatorProcess } from "./simulator";

const require = createRequire(import.meta.url);

/** A running control plane of one mode: its URL and how to stop and remove all of it. */
export interface ControlPlane {
  serverUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts the control plane for `mode`. Embedded: the server alone (in-memory store, memory
 * queue, every pool). Distributed: the server API-only (no pools) on a fresh PostgreSQL schema
 * and Redis key prefix, and one `apps/worker` process running every pool, so every job runs in
 * another process than the one the dashboard talks to and its events reach it over the Redis bus.
 * The worker heartbeats every 300 ms, so a drain (how the specs pause INIT there) lands quickly.
 * Each mode has its own simulator as inference backend (`RAAS_BACKENDS` of server and worker),
 * so agent jobs (math, code, stem) run real turns in real sandboxes.
 */
export async function startControlPlane(mode: E2EMode, root: string): Promise<ControlPlane> {
  const simulator = await startSimulatorProcess(`simulator-${mode}`, root);
  const services = mode === "distributed" ? freshDistributedServices() : null;
  const shared: Record<string, string> = {
    RAAS_BACKENDS: `vllm=${simulator.url}`,
    // The shipped SWE fixtures register `swe` and the `harness` handler (bring your own agent
    // through the inference gateway) — on the worker too, which hosts the gateway of its jobs.
    RAAS_SWE_REPOS_DIR: SWE_REPOS_DIR,
    ...(services
      ? {
          DATABASE_URL: services.databaseUrl,
          RAAS_QUEUE: services.redisUrl,
          RAAS_QUEUE_PREFIX: services.prefix,
        }
      : {}),
  };
  const port = await freePort();
  const tsxCli = join(dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs");
  const server = startProcess(`server-${mode}`, process.execPath, [tsxCli, "apps/server/src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      ...shared,
      PORT: String(port),
      HOST: "127.0.0.1",
      RAAS_STORE: services ? "db" : "memory",
      ...(services ? { RAAS_SERVER_POOLS: "none" } : {}),
      RAAS_ADMIN_TOKEN: E2E_TOKENS.admin,
      RAAS_TRAINER_TOKEN: E2E_TOKENS.trainer,
      RAAS_VIEWER_TOKEN: E2E_TOKENS.viewer,
      RAAS_REQUIRE_VIEWER_TOKEN: "false",
      LOG_LEVEL: "warn",
    },
  });
  let worker: SpawnedWorker | null = null;
  const stop = async () => {
    await Promise.all([stopWorker(worker), server.stop()]);
    await Promise.all([services?.remove(), simulator.stop()]);
  };
  const serverUrl = `http://127.0.0.1:${port}`;
  try {
    // The server migrates the fresh schema before it listens; the worker starts on a migrated one.
    await waitForHttp(`${serverUrl}/health`, 300_000, server);
    if (services)
      worker = await spawnWorker(
        { ...shared, RAAS_WORKER_POOLS: "init=8,run=8,eval=8", RAAS_WORKER_HEARTBEAT_MS: "300" },
        { timeoutMs: 120_000 },
      );
  } catch (error) {
    await stop();
    throw error;
  }
  return { serverUrl, stop };
}

/** SIGTERM (drain and stop); SIGKILL by its pid if it is still there after 10 s. */
async function stopWorker(worker: SpawnedWorker | null): Promise<void> {
  if (!worker) return;
  const timer = setTimeout(() => void worker.kill(), 10_000);
  await worker.stop();
  clearTimeout(timer);
}
