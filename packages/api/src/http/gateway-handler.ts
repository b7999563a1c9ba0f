import type { IncomingMessage, ServerResponse } from "node:http";
import { DEFAULT_MAX_BODY_BYTES, requestFailure } from "@raas/shared";
import { toRequestFailure } from "../errors/to-request-failure";
import type { ControlPlaneGateway } from "../gateway.port";
import type { ApiLogger } from "../logger.types";
import { sendAnthropicError } from "./anthropic-error";
import { GATEWAY_PATH, isAnthropicGatewayPath, matchGatewayPath, serveGateway } from "./gateway-http";
import { GatewaySessionLimiter, type GatewaySessionLimits } from "./gateway-session-limiter";
import { sendRestError } from "./send-json";

export interface GatewayHandlerOptions {
  gateway: ControlPlaneGateway;
  /** Largest request body in bytes. Default the control plane's (`DEFAULT_MAX_BODY_BYTES`). */
  maxBodyBytes?: number;
  /** Unexpected failures (never a request's own fault) are logged here. */
  logger?: Pick<ApiLogger, "error">;
  /** Caps per session (open chat requests: default 16, then 429). */
  sessionLimits?: Partial<GatewaySessionLimits>;
}

/** A node request listener; `sessions` counts what its per-session cap refused. */
export interface GatewayHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  readonly sessions: GatewaySessionLimiter;
}

/**
 * A request handler serving only the inference gateway's routes (`/gateway/<session token>/v1/…`)
 * with the control plane's error envelope: what a worker listens with on its loopback interface,
 * so its sandboxes' bridges reach the gateway of the jobs it runs. Every other path is a 404.
 */
export function createGatewayHandler(options: GatewayHandlerOptions): GatewayHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const sessions = new GatewaySessionLimiter(options.sessionLimits);
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? "/").split("?")[0] as string;
    const route = matchGatewayPath(path);
    const served = route
      ? serveGateway({ req, res, gateway: options.gateway, ...route, maxBodyBytes, sessions })
      : Promise.reject(requestFailure("NOT_FOUND", `${path} is not a gateway route: /gateway/<token>/v1/…`));
    served.catch((thrown: unknown) => {
      const mapped = toRequestFailure(thrown);
      if (mapped.isUnexpected) {
        options.logger?.error(
          { err: mapped.original, method: req.method, path: route ? GATEWAY_PATH : path },
          "unexpected error while serving a gateway request",
        );
      }
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const headers: Record<string, string> =
        mapped.failure.code === "UNAUTHORIZED" ? { "www-authenticate": 'Bearer realm="raas"' } : {};
      const allow = mapped.failure.details?.allow;
      if (Array.isArray(allow)) headers.allow = allow.join(", ");
      if (isAnthropicGatewayPath(path)) sendAnthropicError(res, mapped.failure, headers);
      else sendRestError(res, mapped.failure, headers);
    });
  };
  return Object.assign(handler, { sessions });
}
