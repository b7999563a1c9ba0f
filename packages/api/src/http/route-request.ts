import { hostRefusedMessage, isHostAllowed, requestFailure } from "@raas/shared";
import { type ControlPlaneRequest, type ControlPlaneRoute, routeNotFound } from "./control-plane-request";

/**
 * Refuses hosts outside `allowedHosts` (403, which stops DNS rebinding), then lets the first route
 * family that owns the path serve the request; a path none owns is 404.
 */
export async function routeRequest(
  request: ControlPlaneRequest,
  routes: readonly ControlPlaneRoute[],
  allowedHosts: readonly string[],
): Promise<void> {
  const { host } = request.req.headers;
  if (!isHostAllowed(host, allowedHosts))
    throw requestFailure("FORBIDDEN", hostRefusedMessage(host, allowedHosts));
  for (const route of routes) {
    const served = route(request);
    if (served) return served;
  }
  throw routeNotFound(request.req, request.path);
}
