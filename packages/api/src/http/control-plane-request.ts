import type { IncomingMessage, ServerResponse } from "node:http";
import { requestFailure } from "@raas/shared";

/** The route template a request matched, for metrics labels. */
interface RouteLabel {
  route: string;
}

/** One request on its way through the control plane's routes. */
export interface ControlPlaneRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The request target without its query string. */
  path: string;
  query: URLSearchParams;
  label: RouteLabel;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
}

/**
 * A family of routes: serves the request and returns that promise, or `undefined` when the path
 * is not one of its own (the next family is asked).
 */
export type ControlPlaneRoute = (request: ControlPlaneRequest) => Promise<void> | undefined;

/** Splits the request target into path and query; the label starts as `unmatched`. */
export function readControlPlaneRequest(req: IncomingMessage, res: ServerResponse): ControlPlaneRequest {
  const startedAt = performance.now();
  const rawUrl = req.url ?? "/";
  const queryAt = rawUrl.indexOf("?");
  const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const query = new URLSearchParams(queryAt === -1 ? "" : rawUrl.slice(queryAt + 1));
  return { req, res, path, query, label: { route: "unmatched" }, startedAt };
}

/** A request target without its query string. */
export function pathOf(url: string | undefined): string {
  const target = url ?? "/";
  const queryAt = target.indexOf("?");
  return queryAt === -1 ? target : target.slice(0, queryAt);
}

export function isTrpcPath(path: string): boolean {
  return path === "/trpc" || path.startsWith("/trpc/");
}

export function routeNotFound(req: IncomingMessage, path: string) {
  const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  return requestFailure(
    "NOT_FOUND",
    `no route ${req.method} ${shown}; see /openapi.json for the REST routes, /trpc/<procedure> for tRPC`,
  );
}
