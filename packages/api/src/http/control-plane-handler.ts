import type { IncomingMessage, ServerResponse } from "node:http";
import {
  DEFAULT_MAX_BODY_BYTES,
  hostRefusedMessage,
  isHostAllowed,
  LOOPBACK_HOSTS,
  RaasError,
} from "@raas/shared";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import type { ControlPlaneArchive } from "../archive.port";
import type { ControlPlaneAuthOptions } from "../auth/auth.types";
import { TokenResolver } from "../auth/resolve-principal";
import type { ControlPlaneBackends } from "../backends.port";
import type { ControlPlaneBatches, ControlPlanePolicy } from "../batches.port";
import type { BenchmarkRunStore } from "../benchmarks.port";
import type { ControlPlaneContext } from "../context";
import type { ControlPlaneEngine } from "../engine.port";
import { toRaasError } from "../errors/to-raas-error";
import type { ControlPlaneGateway } from "../gateway.port";
import { type ApiLogger, silentLogger } from "../logger.types";
import { createRedactingLogger } from "../logging/redacting-logger";
import { ControlPlaneMetrics } from "../metrics/control-plane-metrics";
import { registerGatewayRefusalMetrics } from "../metrics/gateway-refusal-metrics";
import { buildOpenApiDocument, type OpenApiDocumentOptions } from "../openapi/openapi-document";
import { RouteMatcher } from "../rest/match-route";
import { handleRestCall } from "../rest/rest-handler";
import { REST_ROUTES } from "../rest/rest-routes";
import { appRouter, createCaller } from "../root";
import type { ControlPlaneSandboxes } from "../sandbox.port";
import type { ControlPlaneStoreHealth } from "../store-health.port";
import type { TokenTextDecoder } from "../tokens.port";
import { requireRole } from "../trpc";
import type { WorkerStore } from "../workers.port";
import { BATCH_JSONL_PATH, matchBatchJsonlPath, serveBatchJsonl } from "./batch-jsonl";
import { GATEWAY_PATH, matchGatewayPath, serveGateway } from "./gateway-http";
import { GatewaySessionLimiter, type GatewaySessionLimits } from "./gateway-session-limiter";
import { declaredLengthError, decodeUtf8, discardRest, readRaw } from "./read-json-body";
import { sendJson, sendRestError } from "./send-json";
import { matchStepStreamPath, STEP_STREAM_PATH, serveStepStream } from "./step-stream";
import { SubscriberLimiter, type SubscriberLimits } from "./subscriber-limiter";
import { connectionParamsToken, SUBSCRIPTION_PATHS, sendTrpcError, trpcRouteLabel } from "./trpc-http";

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

/**
 * Serves the control plane: `/trpc/*` (tRPC, SSE subscriptions), `/api/v1/*` (REST),
 * `/openapi.json`, `/metrics`, `/health`. Unknown routes get JSON 404/405; bad bodies get
 * 400/413/415; nothing a caller sends produces a 5xx.
 */
export function createControlPlaneHandler(options: ControlPlaneHandlerOptions): ControlPlaneHandler {
  const { engine } = options;
  const backends = options.backends ?? null;
  const benchmarks = options.benchmarks ?? null;
  const sandboxes = options.sandboxes ?? null;
  const workers = options.workers ?? null;
  const batches = options.batches ?? null;
  const policy = options.policy ?? null;
  const archive = options.archive ?? null;
  const tokenText = options.tokenText ?? null;
  const { adminToken, trainerToken, viewerToken } = options.auth;
  const logger = createRedactingLogger(options.logger ?? silentLogger, [
    adminToken,
    trainerToken,
    viewerToken,
  ]);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const tokens = new TokenResolver(options.auth);
  const subscribers = new SubscriberLimiter(options.subscribers);
  const metrics = new ControlPlaneMetrics({
    engine,
    collectProcessMetrics: options.collectProcessMetrics ?? true,
    ...(backends ? { backends: backends.pool } : {}),
    liveSubscriptions: () => subscribers.size,
    ...(options.storeHealth && { storeHealth: options.storeHealth }),
  });
  const gatewaySessions = new GatewaySessionLimiter(options.gatewaySessions);
  registerGatewayRefusalMetrics(metrics.registry, () => {
    const bridges = options.gatewayBridges?.bridgeRefusals() ?? { connections: 0, timeout: 0 };
    return {
      sessionInflight: gatewaySessions.refused,
      bridgeConnections: bridges.connections,
      bridgeRequestTimeouts: bridges.timeout,
    };
  });
  const allowedHosts = options.allowedHosts ?? LOOPBACK_HOSTS;
  const matcher = new RouteMatcher(REST_ROUTES);
  // Built on first request: the handlers' schemas are converted once, not at every start-up.
  let openApiText: string | undefined;
  const openApiDocument = () => {
    openApiText ??= JSON.stringify(
      buildOpenApiDocument(REST_ROUTES, {
        handlers: engine.handlerKinds().map((kind) => engine.handlers.get(kind)),
        ...options.openApi,
      }),
    );
    return openApiText;
  };

  const contextFor = (req: IncomingMessage, paramToken?: string | null): ControlPlaneContext => ({
    engine,
    principal: tokens.resolve(req.headers.authorization, paramToken),
    requireViewerToken: options.auth.requireViewerToken,
    hasWriterToken: tokens.hasWriterToken,
    logger,
    backends,
    benchmarks,
    sandboxes,
    workers,
    batches,
    policy,
    archive,
    tokenText,
    gateway: options.gateway ?? null,
    storeHealth: options.storeHealth ?? null,
  });

  /** A slot of the live-subscription caps for this caller (503 past them); returns its release. */
  const acquireSubscriber = (req: IncomingMessage, ctx: ControlPlaneContext): (() => void) => {
    const { principal } = ctx;
    return principal.role
      ? subscribers.acquire(`role:${principal.role}`, `the ${principal.role} token`)
      : subscribers.acquire(`address:${req.socket.remoteAddress}`, "this client address (no token)");
  };

  const logUnexpected = (thrown: unknown, req: IncomingMessage) => {
    const mapped = toRaasError(thrown, options.storeHealth);
    if (!mapped.isUnexpected) return;
    const original =
      mapped.original instanceof Error && mapped.original.cause ? mapped.original.cause : mapped.original;
    logger.error(
      // The path only: a query may carry a token (tRPC's SSE sends `connectionParams` there).
      {
        err: original,
        reference: mapped.error.details?.reference,
        method: req.method,
        path: matchGatewayPath(pathOf(req.url)) ? GATEWAY_PATH : pathOf(req.url),
      },
      "unexpected error while serving a request",
    );
  };

  const trpcHandler = createHTTPHandler({
    router: appRouter,
    basePath: "/trpc/",
    maxBodySize: maxBodyBytes,
    maxBatchSize: options.maxBatchSize ?? 100,
    allowMethodOverride: true,
    createContext: ({ req, info }) => contextFor(req, info.connectionParams?.token),
    onError: ({ error, req }) => logUnexpected(error, req),
    // tRPC writes its own error responses: the same `retry-after` as REST when one asks for it.
    responseMeta: ({ errors }) => {
      for (const error of errors) {
        const retryAfterSec = toRaasError(error, options.storeHealth).error.details?.retryAfterSec;
        if (typeof retryAfterSec === "number") return { headers: { "retry-after": String(retryAfterSec) } };
      }
      return {};
    },
  });

  const serveRest = async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
    label: RouteLabel,
  ) => {
    const match = matcher.match(req.method ?? "GET", path);
    if (match.kind === "none") throw routeNotFound(req, path);
    if (match.kind === "wrong-method") {
      throw new RaasError(
        "METHOD_NOT_ALLOWED",
        `${path} does not accept ${req.method}; use ${match.allow.join(" or ")}`,
        {
          details: { allow: match.allow },
        },
      );
    }
    label.route = match.route.path;
    let signal: AbortSignal | undefined;
    if (match.route.abortsOnDisconnect) {
      const abort = new AbortController();
      res.once("close", () => {
        if (!res.writableFinished) abort.abort();
      });
      signal = abort.signal;
    }
    await handleRestCall({
      req,
      res,
      route: match.route,
      params: match.params,
      query,
      ctx: contextFor(req),
      maxBodyBytes,
      ...(signal ? { signal } : {}),
    });
  };

  const serve = async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
    label: RouteLabel,
  ) => {
    const method = req.method ?? "GET";
    if (!isHostAllowed(req.headers.host, allowedHosts)) {
      throw new RaasError("FORBIDDEN", hostRefusedMessage(req.headers.host, allowedHosts));
    }
    if (path === "/trpc" || path.startsWith("/trpc/")) {
      label.route = trpcRouteLabel(path);
      const tooLarge = declaredLengthError(req, maxBodyBytes);
      if (tooLarge) {
        discardRest(req);
        sendTrpcError(res, tooLarge, { connection: "close" });
        return;
      }
      if (req.method === "POST") {
        // Read the body here rather than through tRPC's web-stream conversion, which costs several
        // times more per request on Node 20; tRPC uses a string `req.body` as is.
        // Always assign, even "": once the stream is consumed tRPC must not try to read it again.
        const raw = await readRaw(req, maxBodyBytes);
        (req as IncomingMessage & { body?: string }).body = decodeUtf8(raw);
      }
      if (SUBSCRIPTION_PATHS.has(path)) {
        // SSE answers 200 before tRPC runs middlewares; check access first so a missing token is a real 401.
        const ctx = contextFor(req, connectionParamsToken(query));
        requireRole(ctx, "viewer");
        res.once("close", acquireSubscriber(req, ctx));
      }
      trpcHandler(req, res);
      return;
    }
    const encodedBatchId = matchBatchJsonlPath(path);
    if (encodedBatchId !== null) {
      label.route = BATCH_JSONL_PATH;
      await serveBatchJsonl({ req, res, encodedBatchId, query, ctx: contextFor(req) });
      return;
    }
    const encodedStepId = matchStepStreamPath(path);
    if (encodedStepId !== null) {
      label.route = STEP_STREAM_PATH;
      const ctx = contextFor(req);
      await serveStepStream({
        req,
        res,
        encodedStepId,
        query,
        ctx,
        acquireSlot: () => acquireSubscriber(req, ctx),
      });
      return;
    }
    const gatewayRoute = matchGatewayPath(path);
    if (gatewayRoute) {
      label.route = GATEWAY_PATH;
      await serveGateway({
        req,
        res,
        gateway: options.gateway ?? null,
        ...gatewayRoute,
        maxBodyBytes,
        sessions: gatewaySessions,
      });
      return;
    }
    if (path.startsWith("/api/")) {
      await serveRest(req, res, path, query, label);
      return;
    }
    const fixed = FIXED_ROUTES[path];
    if (!fixed) throw routeNotFound(req, path);
    label.route = path;
    if (method !== "GET") {
      throw new RaasError("METHOD_NOT_ALLOWED", `${path} only accepts GET`, { details: { allow: ["GET"] } });
    }
    switch (fixed) {
      case "health":
        sendJson(res, 200, await createCaller(contextFor(req)).system.health());
        return;
      case "openapi":
        res.writeHead(200, {
          "content-type": "application/json; charset=utf-8",
          "cache-control": "no-cache",
        });
        res.end(openApiDocument());
        return;
      case "metrics": {
        requireRole(contextFor(req), "viewer"); // the same read rule as every other read
        const { body, contentType } = await metrics.render();
        res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" });
        res.end(body);
        return;
      }
    }
  };

  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    const startedAt = performance.now();
    const rawUrl = req.url ?? "/";
    const queryAt = rawUrl.indexOf("?");
    const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    const query = new URLSearchParams(queryAt === -1 ? "" : rawUrl.slice(queryAt + 1));
    const label: RouteLabel = { route: "unmatched" };
    res.once("close", () => {
      const method = KNOWN_METHODS.has(req.method ?? "") ? req.method! : "OTHER";
      const durationMs = performance.now() - startedAt;
      metrics.observeRequest(label.route, method, res.statusCode, durationMs);
      logger.debug({ method, route: label.route, status: res.statusCode, durationMs }, "request served");
    });
    serve(req, res, path, query, label).catch((thrown: unknown) => {
      logUnexpected(thrown, req);
      const { error } = toRaasError(thrown, options.storeHealth);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const headers: Record<string, string> = {};
      const allow = error.details?.allow;
      if (Array.isArray(allow)) headers.allow = allow.join(", ");
      if (error.code === "PAYLOAD_TOO_LARGE") headers.connection = "close";
      if (error.code === "UNAUTHORIZED") headers["www-authenticate"] = 'Bearer realm="raas"';
      const retryAfterSec = error.details?.retryAfterSec;
      if (typeof retryAfterSec === "number") headers["retry-after"] = String(retryAfterSec);
      if (path === "/trpc" || path.startsWith("/trpc/")) sendTrpcError(res, error, headers);
      else sendRestError(res, error, headers);
    });
  }) as ControlPlaneHandler;

  Object.defineProperty(handler, "metrics", { value: metrics });
  handler.close = () => metrics.close();
  return handler;
}

/** The route template a request matched, for metrics labels. */
interface RouteLabel {
  route: string;
}

const KNOWN_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);
const FIXED_ROUTES: Record<string, "health" | "openapi" | "metrics" | undefined> = {
  "/health": "health",
  "/openapi.json": "openapi",
  "/metrics": "metrics",
};

/** A request target without its query string. */
function pathOf(url: string | undefined): string {
  const target = url ?? "/";
  const queryAt = target.indexOf("?");
  return queryAt === -1 ? target : target.slice(0, queryAt);
}

function routeNotFound(req: IncomingMessage, path: string): RaasError {
  const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  return new RaasError(
    "NOT_FOUND",
    `no route ${req.method} ${shown}; see /openapi.json for the REST routes, /trpc/<procedure> for tRPC`,
  );
}
