import {
  composeAgentHandlers,
  composeImageCache,
  composeInference,
  composeSandboxRuntime,
  loadModelFamily,
} from "@raas/compose";
import type { Logger } from "pino";
import { HealthConditions } from "../health-conditions";
import { SandboxHealthWatch } from "../sandbox-health-watch";
import type { WorkerConfig } from "../worker-config";
import { startWorkerGateway } from "../worker-gateway";
import type { SandboxHealthListener, WorkerHost } from "./worker-parts.types";

/**
 * The host parts of a worker: its inference pool, its sandbox runtime (installed, watched for the
 * jobs' starts), its gateway listener and the agent handlers over them.
 */
export async function composeWorkerHost(
  config: WorkerConfig,
  logger: Logger,
  workerId: string,
): Promise<WorkerHost> {
  // First: a tokenizer directory that cannot serve stops the start before anything is built.
  const family = await loadModelFamily(config.model, logger.child({ component: "model-family" }));
  const inference = composeInference(config.inference, logger.child({ component: "inference" }));
  // Made here rather than inside the runtime: the heartbeat reports on it and prefetches into it.
  const imageCache = composeImageCache(config.sandbox);
  const sandboxRuntime = composeSandboxRuntime(config.sandbox, logger.child({ component: "sandbox" }), {
    requireInstalled: true,
    hostId: workerId,
    ...(imageCache && { imageCache }),
  });
  const conditions = new HealthConditions();
  // Set once the engine and the registration exist; sickness needs a failed job start first.
  let listener: SandboxHealthListener | null = null;
  const sandboxHealth = new SandboxHealthWatch({
    runtime: sandboxRuntime,
    ...config.sandboxHealth,
    onSuspect: () => listener?.suspect(),
    onSick: (reason) => listener?.sick(reason),
    onRecovered: () => listener?.recovered(),
    logger: logger.child({ component: "sandbox-health" }),
  });
  // Before the handlers: the `harness` handler bridges this worker's sandboxes to it.
  const gateway = await startWorkerGateway({
    pool: inference.pool,
    modelName: inference.defaultModelName,
    family,
    logger: logger.child({ component: "gateway" }),
  });
  const agentHandlers = composeAgentHandlers({
    // The jobs' starts are watched: a worker whose sandboxes keep failing stops taking work.
    sandboxRuntime: sandboxHealth.runtime,
    inference: inference.pool,
    family,
    ...(config.agentHandlers.swe && { swe: config.agentHandlers.swe }),
    ...(config.agentHandlers.judge && { judge: config.agentHandlers.judge }),
    harnessGateway: gateway.harnessGateway,
    logger: logger.child({ component: "handlers" }),
  });
  const bindSandboxHealth = (bound: SandboxHealthListener) => {
    listener = bound;
  };
  return {
    logger,
    workerId,
    inference,
    sandboxRuntime,
    imageCache,
    conditions,
    sandboxHealth,
    bindSandboxHealth,
    gateway,
    agentHandlers,
  };
}
