import { createServer, type Server } from "node:http";
import type { ControlPlaneAuthOptions, ControlPlaneHandlerOptions } from "@raas/api";
import {
  type AgentHandlersOptions,
  type ComposedBatches,
  type ComposedWorkers,
  createRaasLogger,
  type InferenceConfig,
  type ModelFamilyConfig,
  type QueueConfig,
  type SandboxConfig,
  type StoreConfig,
  type WorkersConfig,
} from "@raas/compose";
import type {
  AnyTaskHandler,
  BenchmarkRunStore,
  EngineOptions,
  RolloutEngine,
  SandboxRuntime,
  WorkerStore,
} from "@raas/engine";
import type { HandlersConfig } from "@raas/handlers";
import type { InferenceGateway, RoutedInferencePool } from "@raas/inference";
import type { Logger } from "pino";
import { createServerClose } from "./start/close-server";
import { composeServerCore } from "./start/compose-server-core";
import { createServerHandler } from "./start/create-server-handler";
import { listenOrRelease, urlOfAddress } from "./start/listen-server";
import { resolveAuth } from "./start/resolve-auth";
import { startServerSystems } from "./start/start-server-systems";

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
  /**
   * The policy model's family: its chat template, tokenizer and tool-call format, shared by the
   * agent handlers, the gateway and `tokens.decode`. Default `{ kind: "qwen3" }`.
   */
  model?: ModelFamilyConfig;
  /** Sandbox runtime of the agent handlers. Default bubblewrap, looked up on the system PATH. */
  sandbox?: SandboxConfig;
  /**
   * The agent handlers of `@raas/handlers` (math, code, stem) over the sandbox runtime and the
   * inference pool, with the model's family (`model`). Default on; false
   * registers none (the `sleep` handler is always there).
   */
  agentHandlers?:
    | {
        config?: HandlersConfig;
        swe?: AgentHandlersOptions["swe"];
        /** The judge model's backends of `judge` jobs (`RAAS_JUDGE_BACKENDS`), never the policy's. */
        judge?: AgentHandlersOptions["judge"];
        /** Where harness recipes are installed (`RAAS_HARNESS_CACHE`). Default `<os.tmpdir()>/raas-harnesses`. */
        harnessCacheDir?: string;
      }
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
  const core = await composeServerCore(config, logger);
  const systems = await startServerSystems(config, core);
  const handler = createServerHandler(config, auth, core, systems);
  const parts = { core, systems, handler };
  const server = createServer({ keepAliveTimeout: 65_000, requestTimeout: 120_000 }, handler);
  const address = await listenOrRelease(server, config, parts);
  const url = urlOfAddress(address);
  core.setServerUrl(url);
  const { composed, inference, sandboxRuntime } = core;
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
  return {
    url,
    port: address.port,
    auth,
    isAdminTokenGenerated,
    engine: composed.engine,
    inference: inference.pool,
    gateway: core.gateway.gateway,
    defaultModelName: inference.defaultModelName,
    sandboxRuntime,
    benchmarks: composed.benchmarks,
    workers: { ...systems.workers, store: composed.workers },
    batches: systems.batches,
    storeKind: composed.storeKind,
    queueKind: config.queue?.kind ?? "memory",
    server,
    logger,
    close: createServerClose(server, parts, { url, shutdownGraceMs: config.shutdownGraceMs }),
  };
}
