import { BATCH_JSONL_PATH, matchBatchJsonlPath, serveBatchJsonl } from "./batch-jsonl";
import type { ControlPlaneRoute } from "./control-plane-request";
import type { ControlPlaneServices } from "./control-plane-services";
import { GATEWAY_PATH, matchGatewayPath, serveGateway } from "./gateway-http";
import { matchStepStreamPath, STEP_STREAM_PATH, serveStepStream } from "./step-stream";

/** A batch's trajectories as JSON lines. */
export function createBatchJsonlRoute(services: ControlPlaneServices): ControlPlaneRoute {
  return ({ req, res, path, query, label }) => {
    const encodedBatchId = matchBatchJsonlPath(path);
    if (encodedBatchId === null) return undefined;
    label.route = BATCH_JSONL_PATH;
    return serveBatchJsonl({ req, res, encodedBatchId, query, ctx: services.contextFor(req) });
  };
}

/** A training step's groups as server-sent events, under the subscriber caps. */
export function createStepStreamRoute(services: ControlPlaneServices): ControlPlaneRoute {
  return ({ req, res, path, query, label }) => {
    const encodedStepId = matchStepStreamPath(path);
    if (encodedStepId === null) return undefined;
    label.route = STEP_STREAM_PATH;
    const ctx = services.contextFor(req);
    return serveStepStream({
      req,
      res,
      encodedStepId,
      query,
      ctx,
      acquireSlot: () => services.acquireSubscriber(req, ctx),
    });
  };
}

/** The per-job OpenAI-compatible inference gateway, `/gateway/<session token>/v1/…`. */
export function createGatewayRoute(services: ControlPlaneServices): ControlPlaneRoute {
  return ({ req, res, path, label }) => {
    const gatewayRoute = matchGatewayPath(path);
    if (!gatewayRoute) return undefined;
    label.route = GATEWAY_PATH;
    return serveGateway({
      req,
      res,
      gateway: services.options.gateway ?? null,
      ...gatewayRoute,
      maxBodyBytes: services.maxBodyBytes,
      sessions: services.gatewaySessions,
    });
  };
}
