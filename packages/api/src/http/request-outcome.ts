import { toRequestFailure } from "../errors/to-request-failure";
import { sendAnthropicError } from "./anthropic-error";
import { type ControlPlaneRequest, isTrpcPath } from "./control-plane-request";
import type { ControlPlaneServices } from "./control-plane-services";
import { isAnthropicGatewayPath } from "./gateway-http";
import { sendRestError } from "./send-json";
import { sendTrpcError } from "./trpc-http";

const KNOWN_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);

/** When the response closes: the request's duration into the metrics and the debug log. */
export function observeWhenClosed(services: ControlPlaneServices, request: ControlPlaneRequest): void {
  const { req, res, label, startedAt } = request;
  res.once("close", () => {
    const method = KNOWN_METHODS.has(req.method ?? "") ? req.method! : "OTHER";
    const durationMs = performance.now() - startedAt;
    services.metrics.observeRequest(label.route, method, res.statusCode, durationMs);
    services.logger.debug(
      { method, route: label.route, status: res.statusCode, durationMs },
      "request served",
    );
  });
}

/**
 * Answers a failed request with its error in the envelope of its route (tRPC or REST), with the
 * headers the error asks for; a response already started is cut off instead.
 */
export function answerFailure(
  services: ControlPlaneServices,
  request: ControlPlaneRequest,
  thrown: unknown,
): void {
  const { req, res, path } = request;
  services.logUnexpected(thrown, req);
  const { failure } = toRequestFailure(thrown, services.options.storeHealth);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string> = {};
  const allow = failure.details?.allow;
  if (Array.isArray(allow)) headers.allow = allow.join(", ");
  if (failure.code === "PAYLOAD_TOO_LARGE") headers.connection = "close";
  if (failure.code === "UNAUTHORIZED") headers["www-authenticate"] = 'Bearer realm="raas"';
  const retryAfterSec = failure.details?.retryAfterSec;
  if (typeof retryAfterSec === "number") headers["retry-after"] = String(retryAfterSec);
  if (isTrpcPath(path)) sendTrpcError(res, failure, headers);
  else if (isAnthropicGatewayPath(path)) sendAnthropicError(res, failure, headers);
  else sendRestError(res, failure, headers);
}
