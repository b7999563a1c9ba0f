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
    (error: unknown) => {
      if (!(error instanceof SandboxUnavailableError || error instanceof DistributedStoreError)) throw error;
      console.error(error.message);
      process.exit(2);
    },
  );
  const pools = Object.entries(worker.engine.stats().stages)
    .filter(([, stage]) => stage.concurrency > 0)
    .map(([name, stage]) => `${name}=${stage.concurrency}`);
  process.stderr.write(
    `RaaS worker ${worker.id} running pools ${pools.join(",")}; health and metrics on ${worker.httpUrl}\n`,
  );
  handleStopSignals(worker, logger);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
