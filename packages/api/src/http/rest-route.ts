import { requestFailure } from "@raas/shared";
import { RouteMatcher } from "../rest/match-route";
import { handleRestCall } from "../rest/rest-handler";
import { REST_ROUTES } from "../rest/rest-routes";
import { type ControlPlaneRequest, type ControlPlaneRoute, routeNotFound } from "./control-plane-request";
import type { ControlPlaneServices } from "./control-plane-services";

/** `/api/*`: the REST routes; unknown paths get 404, known paths with another method 405. */
export function createRestRoute(services: ControlPlaneServices): ControlPlaneRoute {
  const matcher = new RouteMatcher(REST_ROUTES);
  const serveRest = async ({ req, res, path, query, label }: ControlPlaneRequest) => {
    const match = matcher.match(req.method ?? "GET", path);
    if (match.kind === "none") throw routeNotFound(req, path);
    if (match.kind === "wrong-method") {
      throw requestFailure(
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
      ctx: services.contextFor(req),
      maxBodyBytes: services.maxBodyBytes,
      ...(signal ? { signal } : {}),
    });
  };
  return (request) => (request.path.startsWith("/api/") ? serveRest(request) : undefined);
}
