import { hostname } from "node:os";
import { type ControlPlaneAuthOptions, type ControlPlaneHandler, createControlPlaneHandler } from "@raas/api";
import { createShippedTaskCatalog, inspectEnvironment } from "@raas/handlers";
import { defaultAllowedHosts } from "@raas/shared";
import type { ServerConfig } from "../server";
import type { ServerCore, ServerSystems } from "./server-parts.types";

/** The control plane over the engine and everything composed beside it. */
export function createServerHandler(
  config: ServerConfig,
  auth: ControlPlaneAuthOptions,
  { composed, inference, family, gateway, sandboxRuntime, logger }: ServerCore,
  { backends, batches }: ServerSystems,
): ControlPlaneHandler {
  return createControlPlaneHandler({
    engine: composed.engine,
    auth,
    backends: {
      registry: backends.directory,
      pool: inference.pool,
      defaultModelName: inference.defaultModelName,
    },
    benchmarks: composed.benchmarks,
    environments: {
      store: composed.environments,
      inspect: inspectEnvironment,
      reservedNames: async () => {
        const shipped = createShippedTaskCatalog({ kinds: composed.engine.handlerKinds() });
        return (await shipped.list()).map((dataset) => dataset.name);
      },
    },
    workers: composed.workers,
    storeHealth: composed.storeHealth,
    ...(composed.archive && { archive: composed.archive }),
    batches: { system: batches.system, catalog: batches.catalog },
    policy: batches.policy,
    tokenText: { family: family.family, decode: (ids) => family.tokenizer.decode(ids) },
    gateway: gateway.gateway,
    gatewayBridges: gateway,
    sandboxes: {
      name: sandboxRuntime.name,
      ...(sandboxRuntime.limitsInForce && { limitsInForce: () => sandboxRuntime.limitsInForce!() }),
      events: composed.sandboxEvents,
    },
    logger: logger.child({ component: "api" }),
    ...(config.maxBodyBytes !== undefined ? { maxBodyBytes: config.maxBodyBytes } : {}),
    ...(config.subscribers ? { subscribers: config.subscribers } : {}),
    allowedHosts: [
      ...defaultAllowedHosts(config.host ?? "127.0.0.1", hostname()),
      ...(config.allowedHosts ?? []),
    ],
  });
}
