import type { ServerResponse } from "node:http";
import { requestFailure } from "@raas/shared";
import { buildOpenApiDocument } from "../openapi/openapi-document";
import { REST_ROUTES } from "../rest/rest-routes";
import { createCaller } from "../root";
import { requireRole } from "../trpc";
import type { ControlPlaneRequest, ControlPlaneRoute } from "./control-plane-request";
import type { ControlPlaneServices } from "./control-plane-services";
import { sendJson } from "./send-json";

const FIXED_ROUTES: Record<string, "health" | "openapi" | "metrics" | undefined> = {
  "/health": "health",
  "/openapi.json": "openapi",
  "/metrics": "metrics",
};

/** `/health`, `/openapi.json` and `/metrics`, GET only. */
export function createFixedRoutes(services: ControlPlaneServices): ControlPlaneRoute {
  const openApiDocument = createOpenApiText(services);
  const serveFixed = async ({ req, res, path, label }: ControlPlaneRequest) => {
    const fixed = FIXED_ROUTES[path];
    label.route = path;
    if ((req.method ?? "GET") !== "GET") {
      throw requestFailure("METHOD_NOT_ALLOWED", `${path} only accepts GET`, { details: { allow: ["GET"] } });
    }
    switch (fixed) {
      case "health":
        sendJson(res, 200, await createCaller(services.contextFor(req)).system.health());
        return;
      case "openapi":
        sendOpenApi(res, openApiDocument());
        return;
      case "metrics": {
        requireRole(services.contextFor(req), "viewer"); // the same read rule as every other read
        const { body, contentType } = await services.metrics.render();
        res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" });
        res.end(body);
        return;
      }
    }
  };
  return (request) => (FIXED_ROUTES[request.path] ? serveFixed(request) : undefined);
}

/** Built on first request: the handlers' schemas are converted once, not at every start-up. */
function createOpenApiText({ options }: ControlPlaneServices): () => string {
  const { engine } = options;
  let openApiText: string | undefined;
  return () => {
    openApiText ??= JSON.stringify(
      buildOpenApiDocument(REST_ROUTES, {
        handlers: engine.handlerKinds().map((kind) => engine.handlers.get(kind)),
        ...options.openApi,
      }),
    );
    return openApiText;
  };
}

function sendOpenApi(res: ServerResponse, text: string): void {
  res.writeHead(200, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-cache",
  });
  res.end(text);
}
