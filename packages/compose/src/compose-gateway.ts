import { join } from "node:path";
import {
  type EngineLogger,
  type GatewayCallStore,
  type InferencePool,
  MemoryGatewayCallStore,
  type RolloutEngine,
} from "@raas/engine";
import type { HarnessGateway } from "@raas/handlers";
import { createQwen3ModelFamily, InferenceGateway, type ModelFamilyAdapter } from "@raas/inference";
import { type BridgeRefusal, isGatewayRequest, startHttpSocketBridge } from "@raas/sandbox";
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
  /**
   * Where a sandbox bridge's refusals are reported (connections past its cap, requests sent too
   * slowly): one line at a bridge's first, and its counts when it closes. Default none.
   */
  logger?: Pick<EngineLogger, "warn">;
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
  /** What every bridge opened so far refused: connections past its cap, requests sent too slowly. */
  bridgeRefusals(): Readonly<Record<BridgeRefusal, number>>;
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
  const refusals: Record<BridgeRefusal, number> = { connections: 0, timeout: 0 };
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
          onRefusal: (refusal) => {
            refusals[refusal] += 1;
            if (bridge.refused.connections + bridge.refused.timeout === 1) {
              config.logger?.warn(
                { jobId, refusal },
                "a sandbox's gateway bridge refused a connection (too many open, or a request sent too slowly); its count follows when it closes",
              );
            }
          },
        });
        const close = async () => {
          await bridge.close();
          const { connections, timeout } = bridge.refused;
          if (connections + timeout > 0) {
            config.logger?.warn(
              { jobId, refusedConnections: connections, timedOutRequests: timeout },
              "a sandbox's gateway bridge closed after refusing connections",
            );
          }
        };
        return { socketName, apiKey: session.token, close };
      },
      listCalls: (jobId) => gateway.listCalls(jobId),
    }),
    bridgeRefusals: () => ({ ...refusals }),
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
