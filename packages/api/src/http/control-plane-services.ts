import type { IncomingMessage } from "node:http";
import { DEFAULT_MAX_BODY_BYTES } from "@raas/shared";
import { TokenResolver } from "../auth/resolve-principal";
import type { ControlPlaneContext } from "../context";
import { type ApiLogger, silentLogger } from "../logger.types";
import { createRedactingLogger } from "../logging/redacting-logger";
import { ControlPlaneMetrics } from "../metrics/control-plane-metrics";
import { registerGatewayRefusalMetrics } from "../metrics/gateway-refusal-metrics";
import type { ControlPlaneHandlerOptions } from "./control-plane-handler.types";
import { GatewaySessionLimiter } from "./gateway-session-limiter";
import { logUnexpectedError } from "./log-unexpected-error";
import { SubscriberLimiter } from "./subscriber-limiter";

/** What every route of the control plane shares: options, logger, limits, metrics, contexts. */
export interface ControlPlaneServices {
  readonly options: ControlPlaneHandlerOptions;
  readonly logger: ApiLogger;
  readonly maxBodyBytes: number;
  readonly metrics: ControlPlaneMetrics;
  readonly gatewaySessions: GatewaySessionLimiter;
  /** The procedures' context for this request; `paramToken` is a token sent outside the header. */
  contextFor(req: IncomingMessage, paramToken?: string | null): ControlPlaneContext;
  /** A slot of the live-subscription caps for this caller (503 past them); returns its release. */
  acquireSubscriber(req: IncomingMessage, ctx: ControlPlaneContext): () => void;
  logUnexpected(thrown: unknown, req: IncomingMessage): void;
}

export function createControlPlaneServices(options: ControlPlaneHandlerOptions): ControlPlaneServices {
  const { adminToken, trainerToken, viewerToken } = options.auth;
  const logger = createRedactingLogger(options.logger ?? silentLogger, [
    adminToken,
    trainerToken,
    viewerToken,
  ]);
  const subscribers = new SubscriberLimiter(options.subscribers);
  const gatewaySessions = new GatewaySessionLimiter(options.gatewaySessions);
  return {
    options,
    logger,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    metrics: createHandlerMetrics(options, subscribers, gatewaySessions),
    gatewaySessions,
    contextFor: createContextFactory(options, logger),
    acquireSubscriber: ({ socket }, { principal }) =>
      principal.role
        ? subscribers.acquire(`role:${principal.role}`, `the ${principal.role} token`)
        : subscribers.acquire(`address:${socket.remoteAddress}`, "this client address (no token)"),
    logUnexpected: (thrown, req) => logUnexpectedError(logger, options.storeHealth, thrown, req),
  };
}

function createHandlerMetrics(
  options: ControlPlaneHandlerOptions,
  subscribers: SubscriberLimiter,
  gatewaySessions: GatewaySessionLimiter,
): ControlPlaneMetrics {
  const metrics = new ControlPlaneMetrics({
    engine: options.engine,
    collectProcessMetrics: options.collectProcessMetrics ?? true,
    ...(options.backends ? { backends: options.backends.pool } : {}),
    liveSubscriptions: () => subscribers.size,
    ...(options.storeHealth && { storeHealth: options.storeHealth }),
  });
  registerGatewayRefusalMetrics(metrics.registry, () => {
    const bridges = options.gatewayBridges?.bridgeRefusals() ?? { connections: 0, timeout: 0 };
    return {
      sessionInflight: gatewaySessions.refused,
      bridgeConnections: bridges.connections,
      bridgeRequestTimeouts: bridges.timeout,
    };
  });
  return metrics;
}

function createContextFactory(
  options: ControlPlaneHandlerOptions,
  logger: ApiLogger,
): ControlPlaneServices["contextFor"] {
  const tokens = new TokenResolver(options.auth);
  return (req, paramToken) => ({
    engine: options.engine,
    principal: tokens.resolve(req.headers.authorization, paramToken),
    requireViewerToken: options.auth.requireViewerToken,
    hasWriterToken: tokens.hasWriterToken,
    logger,
    backends: options.backends ?? null,
    benchmarks: options.benchmarks ?? null,
    environments: options.environments ?? null,
    sandboxes: options.sandboxes ?? null,
    workers: options.workers ?? null,
    batches: options.batches ?? null,
    policy: options.policy ?? null,
    archive: options.archive ?? null,
    tokenText: options.tokenText ?? null,
    gateway: options.gateway ?? null,
    storeHealth: options.storeHealth ?? null,
  });
}
