import type { IncomingMessage } from "node:http";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import { toRequestFailure } from "../errors/to-request-failure";
import { appRouter } from "../root";
import { requireRole } from "../trpc";
import { type ControlPlaneRequest, type ControlPlaneRoute, isTrpcPath } from "./control-plane-request";
import type { ControlPlaneServices } from "./control-plane-services";
import { declaredLengthError, decodeUtf8, discardRest, readRaw } from "./read-json-body";
import { connectionParamsToken, SUBSCRIPTION_PATHS, sendTrpcError, trpcRouteLabel } from "./trpc-http";

/** `/trpc/*`: tRPC queries, mutations and batches, and SSE subscriptions under the subscriber caps. */
export function createTrpcRoute(services: ControlPlaneServices): ControlPlaneRoute {
  const { options, maxBodyBytes } = services;
  const trpcHandler = createHTTPHandler({
    router: appRouter,
    basePath: "/trpc/",
    maxBodySize: maxBodyBytes,
    maxBatchSize: options.maxBatchSize ?? 100,
    allowMethodOverride: true,
    createContext: ({ req, info }) => services.contextFor(req, info.connectionParams?.token),
    onError: ({ error, req }) => services.logUnexpected(error, req),
    // tRPC writes its own error responses: the same `retry-after` as REST when one asks for it.
    responseMeta: ({ errors }) => {
      for (const error of errors) {
        const { failure } = toRequestFailure(error, options.storeHealth);
        const retryAfterSec = failure.details?.retryAfterSec;
        if (typeof retryAfterSec === "number") return { headers: { "retry-after": String(retryAfterSec) } };
      }
      return {};
    },
  });
  const serveTrpc = async ({ req, res, path, query, label }: ControlPlaneRequest) => {
    label.route = trpcRouteLabel(path);
    const tooLarge = declaredLengthError(req, maxBodyBytes);
    if (tooLarge) {
      discardRest(req);
      sendTrpcError(res, tooLarge.failure, { connection: "close" });
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
      const ctx = services.contextFor(req, connectionParamsToken(query));
      requireRole(ctx, "viewer");
      res.once("close", services.acquireSubscriber(req, ctx));
    }
    trpcHandler(req, res);
  };
  return (request) => (isTrpcPath(request.path) ? serveTrpc(request) : undefined);
}
