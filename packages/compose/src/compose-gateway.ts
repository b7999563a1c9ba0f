import { join } from "node:path";
import {
  type GatewayCallStore,
  type InferencePool,
  MemoryGatewayCallStore,
  type RolloutEngine,
} from "@raas/engine";
import type { HarnessGateway } from "@raas/handlers";
import { createQwen3ModelFamily, InferenceGateway, type ModelFamilyAdapter } from "@raas/inference";
import { isGatewayRequest, startHttpSocketBridge } from "@raas/sandbox";
import { isTerminalStatus } from "@raas/shared";

export interface GatewayConfig {
  pool: InferencePool;
  /** The model name the gateway reports. */
  modelName: string;
  /** Default Qwen3 with its real tokenizer. */
  family?: ModelFamilyAdapter;
  /**
   * Where calls are recorded. Default in memory. A function is asked at each call: the server
   * builds the gateway before the engine's store exists (the `harness` handler needs it), and
   * hands over the store's once it does.
   */
  calls?: GatewayCallStore | (() => GatewayCallStore);
}

export interface ComposedGateway {
  gateway: InferenceGateway;
  calls: GatewayCallStore;
  /** Ends a job's session when the job ends (call once the engine exists). */
  follow(engine: Pick<RolloutEngine, "subscribe">): void;
  /**
   * What the `harness` handler needs: a bridge from a sandbox's host channel to the job's
   * session on this server, whose base URL (`http://host:port`) is known once it listens.
   */
  harnessGateway(serverUrl: () => string): HarnessGateway;
  /** Stops following the engine's job events. */
  close(): void;
}

/** The inference gateway over the routed pool; a job's session ends when the job does. */
export function composeGateway(config: GatewayConfig): ComposedGateway {
  const calls = resolveCallStore(config.calls);
  const gateway = new InferenceGateway({
    pool: config.pool,
    family: config.family ?? createQwen3ModelFamily(),
    calls,
    modelName: config.modelName,
  });
  let unsubscribe = () => {};
  return {
    gateway,
    calls,
    follow(engine) {
      unsubscribe = engine.subscribe((event) => {
        if (isTerminalStatus(event.job.status)) gateway.closeJob(event.job.id);
      });
    },
    harnessGateway: (serverUrl) => ({
      async openBridge(jobId, hostDir, sampling) {
        // A bridge is opened once per RUN attempt: an earlier attempt's calls are not this one's.
        await gateway.startAttempt(jobId);
        const session = gateway.openSession(jobId, sampling);
        const socketName = "gateway.sock";
        const bridge = await startHttpSocketBridge({
          socketPath: join(hostDir, socketName),
          targetUrl: `${serverUrl()}/gateway/${session.token}`,
          allow: isGatewayRequest,
        });
        return { socketName, apiKey: session.token, close: () => bridge.close() };
      },
      listCalls: (jobId) => gateway.listCalls(jobId),
    }),
    close: () => unsubscribe(),
  };
}

function resolveCallStore(given: GatewayConfig["calls"]): GatewayCallStore {
  if (given === undefined) return new MemoryGatewayCallStore();
  if (typeof given !== "function") return given;
  return {
    append: (record, base) => given().append(record, base),
    listCalls: (jobId) => given().listCalls(jobId),
    deleteCalls: (jobId) => given().deleteCalls(jobId),
  };
}
