import {
  type ComposedAgentHandlers,
  type ComposedEngine,
  type ComposedGateway,
  type ComposedInference,
  composeAgentHandlers,
  composeEngine,
  composeGateway,
  composeHeldImages,
  composeImageCache,
  composeInference,
  composeSandboxRuntime,
  defaultSandboxHostId,
  loadModelFamily,
} from "@raas/compose";
import type { GatewayCallStore, SandboxRuntime } from "@raas/engine";
import type { ModelFamilyAdapter } from "@raas/inference";
import type { Logger } from "pino";
import type { ServerConfig } from "../server";
import type { ServerCore } from "./server-parts.types";

/** Inference, the gateway, the sandbox runtime, the agent handlers and the (unstarted) engine. */
export async function composeServerCore(config: ServerConfig, logger: Logger): Promise<ServerCore> {
  // First: a tokenizer directory that cannot serve stops the start before anything is built.
  const family = await loadModelFamily(
    config.model ?? { kind: "qwen3" },
    logger.child({ component: "model-family" }),
  );
  const inference = composeInference(config.inference ?? {}, logger.child({ component: "inference" }));
  // Before the handlers: the `harness` handler bridges sandboxes to it (the URL is known at listen).
  // Its calls go to the engine's store (the database when there is one), composed below; no job
  // runs, so no call arrives, before it exists.
  let gatewayCalls: GatewayCallStore | null = null;
  const gateway = composeGateway({
    pool: inference.pool,
    modelName: inference.defaultModelName,
    family,
    calls: () => {
      if (!gatewayCalls) throw new Error("the gateway's call store is used before the engine's store exists");
      return gatewayCalls;
    },
    logger: logger.child({ component: "gateway" }),
  });
  let serverUrl = "";
  // Agent handlers need sandboxes: without the runtime's binary the server refuses to start.
  const hostId = config.hostId ?? defaultSandboxHostId();
  // Made here rather than inside the runtime: the heartbeat reports on it and prefetches into it.
  const imageCache = composeImageCache(config.sandbox ?? {});
  const sandboxRuntime = composeSandboxRuntime(config.sandbox ?? {}, logger.child({ component: "sandbox" }), {
    requireInstalled: config.agentHandlers !== false,
    hostId,
    ...(imageCache && { imageCache }),
  });
  const agentHandlers = composeServerAgentHandlers(config, {
    sandboxRuntime,
    inference,
    gateway,
    family,
    serverUrl: () => serverUrl,
    logger,
  });
  const composed = await composeServerEngine(config, {
    inference,
    agentHandlers,
    hostId,
    imageCache,
    logger,
  });
  gatewayCalls = composed.gatewayCalls;
  const setServerUrl = (url: string) => {
    serverUrl = url;
  };
  return {
    logger,
    hostId,
    inference,
    family,
    gateway,
    sandboxRuntime,
    imageCache,
    agentHandlers,
    composed,
    setServerUrl,
  };
}

function composeServerAgentHandlers(
  config: ServerConfig,
  parts: {
    sandboxRuntime: SandboxRuntime;
    inference: ComposedInference;
    gateway: ComposedGateway;
    family: ModelFamilyAdapter;
    serverUrl: () => string;
    logger: Logger;
  },
): ComposedAgentHandlers {
  if (config.agentHandlers === false) return { handlers: [], close: async () => {} };
  return composeAgentHandlers({
    sandboxRuntime: parts.sandboxRuntime,
    inference: parts.inference.pool,
    family: parts.family,
    ...(config.agentHandlers?.config ? { config: config.agentHandlers.config } : {}),
    ...(config.agentHandlers?.swe ? { swe: config.agentHandlers.swe } : {}),
    ...(config.agentHandlers?.judge ? { judge: config.agentHandlers.judge } : {}),
    ...(config.agentHandlers?.harnessCacheDir
      ? { harnessCacheDir: config.agentHandlers.harnessCacheDir }
      : {}),
    harnessGateway: parts.gateway.harnessGateway(parts.serverUrl),
    ...(config.handlers ? { harnessTargets: config.handlers } : {}),
    logger: parts.logger.child({ component: "handlers" }),
  });
}

function composeServerEngine(
  config: ServerConfig,
  parts: {
    inference: ComposedInference;
    agentHandlers: ComposedAgentHandlers;
    hostId: string;
    imageCache: ReturnType<typeof composeImageCache>;
    logger: Logger;
  },
): Promise<ComposedEngine> {
  const { inference, agentHandlers } = parts;
  // Image-aware placement: the embedded worker's reserves name the images its cache holds.
  const held = parts.imageCache && composeHeldImages(parts.imageCache);
  return composeEngine({
    store: config.store ?? { kind: "memory" },
    ...(config.queue && { queue: config.queue }),
    logger: parts.logger.child({ component: "engine" }),
    ...(config.pools ? { pools: config.pools } : {}),
    handlers: [...agentHandlers.handlers, ...(config.handlers ?? [])],
    inference: inference.pool,
    workerId: parts.hostId,
    ...(held && { heldImages: () => held.list() }),
    ...(config.fairShare ? { fairShare: config.fairShare } : {}),
  }).catch(async (error: unknown) => {
    // E.g. a Redis queue without PostgreSQL: release what was built before saying why.
    await Promise.all([inference.close(), agentHandlers.close()]);
    throw error;
  });
}
