import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createGatewayHandler } from "@raas/api";
import { type ComposedGateway, composeGateway } from "@raas/compose";
import type { GatewayCallStore, InferencePool } from "@raas/engine";
import type { ModelFamilyAdapter } from "@raas/inference";
import type { Logger } from "pino";

export interface WorkerGateway {
  /** What the `harness` handler bridges its sandboxes to: this worker's listener. */
  harnessGateway: ReturnType<ComposedGateway["harnessGateway"]>;
  /** Records calls in the engine's store from now on (compose it after the handlers). */
  useCallStore(calls: GatewayCallStore): void;
  composed: ComposedGateway;
  /** Base URL of the loopback listener, e.g. `http://127.0.0.1:41234`. */
  url: string;
  close(): Promise<void>;
}

/**
 * The inference gateway of the jobs this worker runs: their harnesses' sandbox bridges reach it on
 * a listener of the worker's own, on the loopback interface only (nothing off the node needs it;
 * the control plane reads the recorded calls from the shared store for `gateway-traces`).
 * Calls are recorded in the engine's store, PostgreSQL, handed over once the engine exists: no
 * job runs here before that, so no call arrives earlier.
 */
export async function startWorkerGateway(options: {
  pool: InferencePool;
  modelName: string;
  family: ModelFamilyAdapter;
  logger: Logger;
}): Promise<WorkerGateway> {
  let calls: GatewayCallStore | null = null;
  const composed = composeGateway({
    pool: options.pool,
    modelName: options.modelName,
    family: options.family,
    calls: () => {
      if (!calls) throw new Error("the gateway's call store is used before the engine's store exists");
      return calls;
    },
    logger: options.logger,
  });
  const server = createServer(
    { keepAliveTimeout: 65_000, requestTimeout: 120_000 },
    createGatewayHandler({ gateway: composed.gateway, logger: options.logger }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    harnessGateway: composed.harnessGateway(() => url),
    useCallStore: (store) => {
      calls = store;
    },
    composed,
    url,
    close: async () => {
      composed.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
