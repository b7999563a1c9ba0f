import { LOOPBACK_HOSTS } from "@raas/shared";
import type { ControlPlaneHandler, ControlPlaneHandlerOptions } from "./control-plane-handler.types";
import { readControlPlaneRequest } from "./control-plane-request";
import { createControlPlaneServices } from "./control-plane-services";
import { createFixedRoutes } from "./fixed-routes";
import { answerFailure, observeWhenClosed } from "./request-outcome";
import { createRestRoute } from "./rest-route";
import { routeRequest } from "./route-request";
import { createBatchJsonlRoute, createGatewayRoute, createStepStreamRoute } from "./streaming-routes";
import { createTrpcRoute } from "./trpc-route";

/**
 * Serves the control plane: `/trpc/*` (tRPC, SSE subscriptions), `/api/v1/*` (REST),
 * `/openapi.json`, `/metrics`, `/health`. Unknown routes get JSON 404/405; bad bodies get
 * 400/413/415; nothing a caller sends produces a 5xx.
 */
export function createControlPlaneHandler(options: ControlPlaneHandlerOptions): ControlPlaneHandler {
  const services = createControlPlaneServices(options);
  const allowedHosts = options.allowedHosts ?? LOOPBACK_HOSTS;
  // Asked in this order; the first family that owns the path serves it.
  const routes = [
    createTrpcRoute(services),
    createBatchJsonlRoute(services),
    createStepStreamRoute(services),
    createGatewayRoute(services),
    createRestRoute(services),
    createFixedRoutes(services),
  ];
  const handler = ((req, res) => {
    const request = readControlPlaneRequest(req, res);
    observeWhenClosed(services, request);
    routeRequest(request, routes, allowedHosts).catch((thrown: unknown) =>
      answerFailure(services, request, thrown),
    );
  }) as ControlPlaneHandler;
  Object.defineProperty(handler, "metrics", { value: services.metrics });
  handler.close = () => services.metrics.close();
  return handler;
}
