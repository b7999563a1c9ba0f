import { type ComposedEngine, composeEngine, composeHeldImages } from "@raas/compose";
import type { WorkerConfig } from "../worker-config";
import type { WorkerHost } from "./worker-parts.types";

/**
 * The engine on the shared PostgreSQL store and the Redis stage queues and bus, running the host's
 * handlers; the gateway records its calls in that store and follows the engine's jobs.
 */
export async function composeWorkerEngine(config: WorkerConfig, host: WorkerHost): Promise<ComposedEngine> {
  const { gateway, inference } = host;
  // Image-aware placement: each reserve names the images this worker's cache holds.
  const held = host.imageCache && composeHeldImages(host.imageCache);
  const composed = await composeEngine({
    store: {
      kind: "db",
      databaseUrl: config.databaseUrl,
      dataDir: "",
      ...(config.storeWaitMs !== undefined && { waitMs: config.storeWaitMs }),
    },
    queue: { kind: "redis", ...config.queue },
    pools: config.pools,
    handlers: host.agentHandlers.handlers,
    inference: inference.pool,
    workerId: host.workerId,
    ...(held && { heldImages: () => held.list() }),
    // INIT items come back from the control plane, which knows the jobs its admission holds back.
    requeueStagesOnRestore: ["run", "eval"],
    logger: host.logger.child({ component: "engine" }),
  }).catch(async (error: unknown) => {
    // Its listener would keep the process alive after the failed start.
    await gateway.close();
    throw error;
  });
  gateway.useCallStore(composed.gatewayCalls);
  // A job's session token stops working when the job ends (its events reach every worker).
  gateway.composed.follow(composed.engine);
  return composed;
}
