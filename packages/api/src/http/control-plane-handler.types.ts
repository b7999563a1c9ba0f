import type { IncomingMessage, ServerResponse } from "node:http";
import type { ControlPlaneArchive } from "../archive.port";
import type { ControlPlaneAuthOptions } from "../auth/auth.types";
import type { ControlPlaneBackends } from "../backends.port";
import type { ControlPlaneBatches, ControlPlanePolicy } from "../batches.port";
import type { BenchmarkRunStore } from "../benchmarks.port";
import type { ControlPlaneEngine } from "../engine.port";
import type { ControlPlaneEnvironments } from "../environments.port";
import type { ControlPlaneGateway } from "../gateway.port";
import type { ApiLogger } from "../logger.types";
import type { ControlPlaneMetrics } from "../metrics/control-plane-metrics";
import type { OpenApiDocumentOptions } from "../openapi/openapi-document";
import type { ControlPlaneSandboxes } from "../sandbox.port";
import type { ControlPlaneStoreHealth } from "../store-health.port";
import type { TokenTextDecoder } from "../tokens.port";
import type { WorkerStore } from "../workers.port";
import type { GatewaySessionLimits } from "./gateway-session-limiter";
import type { SubscriberLimits } from "./subscriber-limiter";

/** Options of `createControlPlaneHandler`. */
export interface ControlPlaneHandlerOptions {
  engine: ControlPlaneEngine;
  auth: ControlPlaneAuthOptions;
  /**
   * The inference backends behind the engine, managed by the `backends.*` procedures. Default
   * none: those procedures then answer 503 with a sentence saying so.
   */
  backends?: ControlPlaneBackends;
  /**
   * Where the `benchmarks.*` procedures store benchmark runs and per-instance results. Default
   * none: those procedures then answer 503 with a sentence saying so.
   */
  benchmarks?: BenchmarkRunStore;
  /**
   * The environment registry the `environments.*` procedures register and list. Default none:
   * those procedures then answer 503 with a sentence saying so.
   */
  environments?: ControlPlaneEnvironments;
  /** The agent sandboxes' runtime, whose limits `system.health` reports. Default none (reported as null). */
  sandboxes?: ControlPlaneSandboxes;
  /**
   * The worker registry the `workers.*` procedures list, drain and resume. Default none: those
   * procedures then answer 503 with a sentence saying so.
   */
  workers?: WorkerStore;
  /**
   * Training runs, steps and groups (`runs.*`, `steps.*`, `datasets.*`) and the policy control
   * (`policy.*`). Default none: those procedures then answer 503 with a sentence saying so.
   */
  batches?: ControlPlaneBatches;
  policy?: ControlPlanePolicy;
  /** Retention (`runs.archive`): archives finished runs' trajectories. Default none: it answers 503. */
  archive?: ControlPlaneArchive;
  /** Token ids → text for `tokens.decode` (the dashboard's token view). Default none: it answers 503. */
  tokenText?: TokenTextDecoder;
  /**
   * The per-job OpenAI-compatible inference gateway served under `/gateway/<session token>/v1/`.
   * Default none: those routes then answer 503.
   */
  gateway?: ControlPlaneGateway;
  /** Caps per gateway session (open chat requests: default 16, then 429 with `connection: close`). */
  gatewaySessions?: Partial<GatewaySessionLimits>;
  /**
   * What the sandboxes' gateway bridges refused so far (connections past a bridge's cap, requests
   * sent too slowly), exported with the session cap's refusals as `raas_gateway_refusals_total`.
   * Default none (those series stay 0).
   */
  gatewayBridges?: { bridgeRefusals(): Readonly<{ connections: number; timeout: number }> };
  /** Structured logger (pino-compatible). Default: silent. */
  logger?: ApiLogger;
  /** Largest accepted request body in bytes, for tRPC and REST alike. Default 1_048_576 (1 MiB). */
  maxBodyBytes?: number;
  /** Most calls in one tRPC batch request. Default 100. */
  maxBatchSize?: number;
  /** `info` and `servers` of `/openapi.json`. */
  openApi?: OpenApiDocumentOptions;
  /**
   * Caps on live subscriptions (SSE): in total (default 256) and per token (default 32; tokenless
   * readers count per client address). Past a cap the request gets 503 with `retry-after`.
   */
  subscribers?: Partial<SubscriberLimits>;
  /**
   * Host names this server answers for (`Host` header, port ignored; `.domain` for subdomains,
   * `*` for any); IP addresses and `localhost` are always accepted. Other hosts get 403, which
   * stops DNS rebinding. Default `LOOPBACK_HOSTS` (localhost, 127.0.0.1, [::1]).
   */
  allowedHosts?: readonly string[];
  /** Export Node process metrics on `/metrics` too. Default true. */
  collectProcessMetrics?: boolean;
  /** This process's store health, in `/health` (`store`) and `/metrics` (`raas_store_*`). Default none. */
  storeHealth?: ControlPlaneStoreHealth;
}

/** A node `(req, res)` listener plus `close()`, which detaches it from the engine (metrics). */
export interface ControlPlaneHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  readonly metrics: ControlPlaneMetrics;
  close(): void;
}
