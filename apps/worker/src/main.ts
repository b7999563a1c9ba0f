import {
  createRaasLogger,
  DistributedStoreError,
  loadHostEnvFiles,
  SandboxUnavailableError,
} from "@raas/compose";
import { EnvError, loadWorkerEnv } from "./env";
import { startWorker } from "./start-worker";
import { handleStopSignals } from "./stop-signals";
import { workerConfigFromEnv } from "./worker-config";

/** Connection errors that mean the shared store is not there (as opposed to a bug). */
const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ETIMEDOUT", "EAI_AGAIN"]);

async function main(): Promise<void> {
  let config: ReturnType<typeof workerConfigFromEnv>;
  let logLevel: string;
  try {
    const env = loadWorkerEnv();
    config = workerConfigFromEnv(env, await loadHostEnvFiles(env));
    logLevel = env.LOG_LEVEL;
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
  const logger = createRaasLogger(logLevel, { service: "raas-worker" });
  // Marked lost, it has stopped: exit non-zero so systemd/Slurm see a failure (and restart it).
  const worker = await startWorker(config, logger, { onStoppedAsLost: () => process.exit(1) }).catch(
    exitOnStartError,
  );
  const pools = Object.entries(worker.engine.stats().stages)
    .filter(([, stage]) => stage.concurrency > 0)
    .map(([name, stage]) => `${name}=${stage.concurrency}`);
  process.stderr.write(
    `RaaS worker ${worker.id} running pools ${pools.join(",")}; health and metrics on ${worker.httpUrl}\n`,
  );
  handleStopSignals(worker, logger);
}

/** A start-up failure the operator can fix: one line, exit 2. Anything else is rethrown (a bug). */
function exitOnStartError(error: unknown): never {
  if (error instanceof SandboxUnavailableError || error instanceof DistributedStoreError) {
    console.error(error.message);
    process.exit(2);
  }
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && UNREACHABLE.has(code)) {
    // Only after RAAS_STORE_WAIT_MS of waiting for it. No stack, and no URL: it may carry a password.
    console.error(
      `the worker could not start: ${(error as Error).message} — is the PostgreSQL of DATABASE_URL running and reachable from this machine?`,
    );
    process.exit(2);
  }
  throw error;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
