import {
  type GatewayCallStore,
  type InferencePool,
  MemoryGatewayCallStore,
  type RolloutEngine,
} from "@raas/engine";
import { createQwen3ModelFamily, InferenceGateway, type ModelFamilyAdapter } from "@raas/inference";
import { isTerminalStatus } from "@raas/shared";

export interface GatewayConfig {
  engine: Pick<RolloutEngine, "subscribe">;
  pool: InferencePool;
  /** The model name the gateway reports. */
  modelName: string;
  /** Default Qwen3 with its real tokenizer. */
  family?: ModelFamilyAdapter;
  /** Default in memory. */
  calls?: GatewayCallStore;
}

export interface ComposedGateway {
  gateway: InferenceGateway;
  calls: GatewayCallStore;
  /** Stops following the engine's job events. */
  close(): void;
}

/** The inference gateway over the routed pool; a job's session ends when the job does. */
export function composeGateway(config: GatewayConfig): ComposedGateway {
  const calls = config.calls ?? new MemoryGatewayCallStore();
  const gateway = new InferenceGateway({
    pool: config.pool,
    family: config.family ?? createQwen3ModelFamily(),
    calls,
    modelName: config.modelName,
  });
  const unsubscribe = config.engine.subscribe((event) => {
    if (isTerminalStatus(event.job.status)) gateway.closeJob(event.job.id);
  });
  return { gateway, calls, close: unsubscribe };
}
