import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import {
  type ControlPlaneAuthOptions,
  type ControlPlaneHandlerOptions,
  createControlPlaneHandler,
} from "@raas/api";
import {
  type AgentHandlersOptions,
  type ChatFormatName,
  type ComposedAgentHandlers,
  type ComposedBatches,
  type ComposedWorkers,
  composeAgentHandlers,
  composeBackends,
  composeBatches,
  composeEngine,
  composeGateway,
  composeInference,
  composeSandboxRuntime,
  composeWorkers,
  createRaasLogger,
  defaultSandboxHostId,
  type InferenceConfig,
  type QueueConfig,
  recordSandboxEvents,
  type SandboxConfig,
  type StoreConfig,
  type WorkersConfig,
} from "@raas/compose";
import type {
  AnyTaskHandler,
  BenchmarkRunStore,
  EngineOptions,
  GatewayCallStore,
  RolloutEngine,
  SandboxRuntime,
  WorkerStore,
} from "@raas/engine";
import type { HandlersConfig } from "@raas/handlers";
import type { InferenceGateway, RoutedInferencePool } from "@raas/inference";
import { DEFAULT_SERVER_HOST, DEFAULT_SERVER_PORT, defaultAllowedHosts } from "@raas/shared";
import type { Logger } from "pino";
import { qwen3TokenText } from "./token-text";

/** Everything `startServer` needs; `main.ts` builds it from the environment. */
export interface ServerConfig {
  /** TCP port; 0 picks a free one (tests). Default `DEFAULT_SERVER_PORT` (8080). */
  port?: number;
  /** Interface to bind. Default `DEFAULT_SERVER_HOST` (127.0.0.1). */
  host?: string;
  /** Default `{ kind: "memory" }`. */
  store?: StoreConfig;
  /**
   * Default `{ kind: "memory" }`, the embedded mode. `redis` is distributed mode: the stage queues
   * and event bus are shared with `apps/worker` processes through Redis (needs a PostgreSQL store),
   * the engine recovers at start only the jobs no live worker holds, and the workers monitor
   * recovers a lost worker's.
   */
  queue?: QueueConfig;
  /**
   * Bearer tokens. When neither an admin nor a trainer token is given, the server generates a
   * random admin token at start (returned as `auth.adminToken`, printed by `main.ts`), so an
   * embedded server is never writable without a token.
   */
  auth?: Partial<ControlPlaneAuthOptions>;
  pools?: EngineOptions["pools"];
  /**
   * Fair sharing of the service between training runs (weights, priorities, sandbox caps,
   * optional preemption): new jobs are admitted to INIT by weighted fair queuing. Default off
   * here; `main.ts` turns it on unless RAAS_FAIR_SHARE=false.
   */
  fairShare?: EngineOptions["fairShare"];
  /** How often training runs' retention policies are applied (database store), in ms. Default 60_000. */
  retentionEveryMs?: number;
  /** Extra task handlers (tests, plug-ins), registered after the built-in ones. */
  handlers?: AnyTaskHandler[];
  /** The routed inference pool: backends registered at start, default model, health checks. Default: no backends. */
  inference?: InferenceConfig;
  /** Sandbox runtime of the agent handlers. Default bubblewrap, looked up on the system PATH. */
  sandbox?: SandboxConfig;
  /**
   * The agent handlers of `@raas/handlers` (math, code, stem) over the sandbox runtime and the
   * inference pool, with the model's chat format. Default `{ chatFormat: "qwen3" }`; false
   * registers none (the `sleep` handler is always there).
   */
  agentHandlers?:
    | { chatFormat?: ChatFormatName; config?: HandlersConfig; swe?: AgentHandlersOptions["swe"] }
    | false;
  /**
   * Host names served besides the defaults (localhost, 127.0.0.1, [::1], IP addresses, and the
   * machine's name when bound to every interface); `*` serves any `Host`. Default none.
   */
  allowedHosts?: string[];
  /** Largest request body in bytes. Default 1_048_576. */
  maxBodyBytes?: number;
  /** Caps on live subscriptions (SSE), in total and per token. Default 256 / 32. */
  subscribers?: ControlPlaneHandlerOptions["subscribers"];
  /** Running stages get this long to finish on close, in ms. Default the engine's `DEFAULT_STOP_GRACE_MS`. */
  shutdownGraceMs?: number;
  /** Worker/host id stored with each sandbox event; also this process's worker id. Default `<hostname>:<pid>`. */
  hostId?: string;
  /** This process as a worker (labels, heartbeat) and the monitor of every worker. Engine defaults. */
  workers?: WorkersConfig;
  /** A pino logger; default JSON on stdout at `logLevel`. */
  logger?: Logger;
  /** Used when no logger is given. Default "info". */
  logLevel?: string;
}

export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  port: number;
  /** Effective auth, including a generated admin token. */
  auth: ControlPlaneAuthOptions;
  /** True when `auth.adminToken` was generated at start. */
  isAdminTokenGenerated: boolean;
  engine: RolloutEngine;
  /** The routed inference pool (also what `backends.*` manages). */
  inference: RoutedInferencePool;
  /** The per-job OpenAI-compatible inference gateway (`/gateway/<session token>/v1/…`). */
  gateway: InferenceGateway;
  /** Model name of backends registered without one. */
  defaultModelName: string;
  sandboxRuntime: SandboxRuntime;
  /** Benchmark runs (what `benchmarks.*` serves), in the same store as the jobs. */
  benchmarks: BenchmarkRunStore;
  /** The worker registry (what `workers.*` serves), this process's worker and the monitor. */
  workers: ComposedWorkers & { store: WorkerStore };
  /** Training runs, steps and groups and the policy control (what `runs.*`, `steps.*`, `policy.*` serve). */
  batches: ComposedBatches;
  storeKind: "memory" | "pglite" | "postgres";
  /** `memory` (embedded) or `redis` (distributed mode). */
  queueKind: QueueConfig["kind"];
  server: Server;
  logger: Logger;
  /** Stops accepting requests, ends open streams, stops the engine, closes the store. Idempotent. */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Starts engine and HTTP server in this process. */
export async function startServer(config: ServerConfig = {}): Promise<RunningServer> {
  const { auth, isAdminTokenGenerated } = resolveAuth(config.auth);
  const logger =
    config.logger ??
    createRaasLogger(config.logLevel ?? "info", {
      secrets: [auth.adminToken, auth.trainerToken, auth.viewerToken, ...(auth.trainerTokens ?? [])],
    });
  const inference = composeInference(config.inference ?? {}, logger.child({ component: "inference" }));
  // Before the handlers: the `harness` handler bridges sandboxes to it (the URL is known at listen).
  // Its calls go to the engine's store (the database when there is one), composed below; no job
  // runs, so no call arrives, before it exists.
  let gatewayCalls: GatewayCallStore | null = null;
  const gateway = composeGateway({
    pool: inference.pool,
    modelName: inference.defaultModelName,
    calls: () => {
      if (!gatewayCalls) throw new Error("the gateway's call store is used before the engine's store exists");
      return gatewayCalls;
    },
    logger: logger.child({ component: "gateway" }),
  });
  let serverUrl = "";
  // Agent handlers need sandboxes: without the runtime's binary the server refuses to start.
  const hostId = config.hostId ?? defaultSandboxHostId();
  const sandboxRuntime = composeSandboxRuntime(config.sandbox ?? {}, logger.child({ component: "sandbox" }), {
    requireInstalled: config.agentHandlers !== false,
    hostId,
  });
  const agentHandlers: ComposedAgentHandlers =
    config.agentHandlers === false
      ? { handlers: [], close: async () => {} }
      : composeAgentHandlers({
          sandboxRuntime,
          inference: inference.pool,
          chatFormat: config.agentHandlers?.chatFormat ?? "qwen3",
          ...(config.agentHandlers?.config ? { config: config.agentHandlers.config } : {}),
          ...(config.agentHandlers?.swe ? { swe: config.agentHandlers.swe } : {}),
          harnessGateway: gateway.harnessGateway(() => serverUrl),
          logger: logger.child({ component: "handlers" }),
        });
  const composed = await composeEngine({
    store: config.store ?? { kind: "memory" },
    ...(config.queue && { queue: config.queue }),
    logger: logger.child({ component: "engine" }),
    ...(config.pools ? { pools: config.pools } : {}),
    handlers: [...agentHandlers.handlers, ...(config.handlers ?? [])],
    inference: inference.pool,
    workerId: hostId,
    ...(config.fairShare ? { fairShare: config.fairShare } : {}),
  }).catch(async (error: unknown) => {
    // E.g. a Redis queue without PostgreSQL: release what was built before saying why.
    await Promise.all([inference.close(), agentHandlers.close()]);
    throw error;
  });
  gatewayCalls = composed.gatewayCalls;
  // The server watches every worker: it closes the sandbox records of dead ones, and removes the
  // sandbox directories of dead hosts it can see (a base directory shared with workers).
  const sandboxEvents = recordSandboxEvents(sandboxRuntime, composed.sandboxEvents, {
    hostId,
    logger: logger.child({ component: "sandbox-events" }),
    workers: composed.workers,
    ...(composed.bus && { bus: composed.bus }),
    closeDeadHostRecords: true,
  });
  await composed.engine.start();
  // The embedded default is one worker, "<hostname>:<pid>"; the monitor marks silent workers lost
  // and the engine restarts the unfinished jobs they held.
  const workers = await composeWorkers({
    ...config.workers,
    store: composed.workers,
    engine: composed.engine,
    sandboxRuntime,
    workerId: hostId,
    ...(composed.bus && { bus: composed.bus, backends: () => inference.pool.listBackends() }),
    // No worker is marked lost for heartbeats a database outage kept from the store.
    storeHealth: composed.storeHealth,
    logger: logger.child({ component: "workers" }),
  });
  // Distributed mode: what is registered, drained or removed through the API is kept in the store
  // (a restart gets it back) and applied by every worker; backends.list merges the workers' views.
  const backends = await composeBackends({
    registry: inference.pool,
    shared: composed.bus
      ? {
          store: composed.backendRegistrations,
          bus: composed.bus,
          workers: composed.workers,
          selfWorkerId: workers.workerId,
          ...(config.workers?.heartbeatIntervalMs !== undefined && {
            syncIntervalMs: config.workers.heartbeatIntervalMs,
          }),
          ...(config.workers?.missedAfterMs !== undefined && { missedAfterMs: config.workers.missedAfterMs }),
        }
      : null,
    logger: logger.child({ component: "backends" }),
  });
  // The server runs the deployment's one batch system: embedded, or as the control plane of
  // workers (they never do). After the engine, so that resumed steps find it running.
  const batches = await composeBatches({
    engine: composed.engine,
    store: composed.batches,
    curriculum: composed.curriculum,
    gatewayCalls: composed.gatewayCalls,
    inference: inference.pool,
    bus: composed.bus,
    archive: composed.archive,
    ...(config.retentionEveryMs !== undefined && { retentionEveryMs: config.retentionEveryMs }),
    logger: logger.child({ component: "batches" }),
  });
  gateway.follow(composed.engine);
  const handler = createControlPlaneHandler({
    engine: composed.engine,
    auth,
    backends: {
      registry: backends.directory,
      pool: inference.pool,
      defaultModelName: inference.defaultModelName,
    },
    benchmarks: composed.benchmarks,
    workers: composed.workers,
    storeHealth: composed.storeHealth,
    ...(composed.archive && { archive: composed.archive }),
    batches: { system: batches.system, catalog: batches.catalog },
    policy: batches.policy,
    tokenText: qwen3TokenText(),
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
  const server = createServer({ keepAliveTimeout: 65_000, requestTimeout: 120_000 }, handler);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.port ?? DEFAULT_SERVER_PORT, config.host ?? DEFAULT_SERVER_HOST, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    // E.g. the port is taken: release what was built so an in-process caller can retry.
    handler.close();
    gateway.close();
    await batches.close();
    await backends.close();
    await workers.close();
    await composed.engine.stop({ graceMs: 0 });
    await Promise.all([sandboxRuntime.closeAll(), inference.close(), agentHandlers.close()]);
    await sandboxEvents.close();
    await composed.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  serverUrl = url;
  logger.info(
    {
      url,
      store: composed.storeKind,
      queue: config.queue?.kind ?? "memory",
      handlerKinds: composed.engine.handlerKinds(),
      backends: inference.pool.listBackends().map((backend) => backend.id),
      sandboxRuntime: sandboxRuntime.name,
    },
    "server listening",
  );

  let closing: Promise<void> | null = null;
  const close = (options: { graceMs?: number } = {}) => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      handler.close();
      gateway.close();
      // Before the engine: no step acts on job events while the engine winds down.
      await batches.close();
      await composed.engine.stop({ graceMs: options.graceMs ?? config.shutdownGraceMs });
      await backends.close();
      await workers.close();
      // Long-polls and SSE streams would hold the server open; the engine is stopped, so end them.
      server.closeAllConnections();
      await closed;
      await sandboxRuntime.closeAll();
      // Every sandbox is closed: its last events are buffered, write them before the store closes.
      await sandboxEvents.close();
      // After the engine stopped: no stage can still be cutting a bundle from the scratch directory.
      await agentHandlers.close();
      await inference.close();
      await composed.close();
      logger.info({ url }, "server stopped");
    })();
    return closing;
  };

  return {
    url,
    port: address.port,
    auth,
    isAdminTokenGenerated,
    engine: composed.engine,
    inference: inference.pool,
    gateway: gateway.gateway,
    defaultModelName: inference.defaultModelName,
    sandboxRuntime,
    benchmarks: composed.benchmarks,
    workers: { ...workers, store: composed.workers },
    batches,
    storeKind: composed.storeKind,
    queueKind: config.queue?.kind ?? "memory",
    server,
    logger,
    close,
  };
}

function resolveAuth(given: Partial<ControlPlaneAuthOptions> = {}): {
  auth: ControlPlaneAuthOptions;
  isAdminTokenGenerated: boolean;
} {
  const auth: ControlPlaneAuthOptions = { ...given, requireViewerToken: given.requireViewerToken ?? false };
  if (auth.adminToken || auth.trainerToken || (auth.trainerTokens?.length ?? 0) > 0)
    return { auth, isAdminTokenGenerated: false };
  return {
    auth: { ...auth, adminToken: `raas_${randomBytes(24).toString("base64url")}` },
    isAdminTokenGenerated: true,
  };
}
