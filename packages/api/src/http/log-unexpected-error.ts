import type { IncomingMessage } from "node:http";
import { toRequestFailure } from "../errors/to-request-failure";
import type { ApiLogger } from "../logger.types";
import type { ControlPlaneStoreHealth } from "../store-health.port";
import { pathOf } from "./control-plane-request";
import { GATEWAY_PATH, matchGatewayPath } from "./gateway-http";

/** Logs a failure that is not the caller's (a bug, an infrastructure outage) with its reference. */
export function logUnexpectedError(
  logger: ApiLogger,
  storeHealth: ControlPlaneStoreHealth | undefined,
  thrown: unknown,
  req: IncomingMessage,
): void {
  const mapped = toRequestFailure(thrown, storeHealth);
  if (!mapped.isUnexpected) return;
  const original =
    mapped.original instanceof Error && mapped.original.cause ? mapped.original.cause : mapped.original;
  logger.error(
    // The path only: a query may carry a token (tRPC's SSE sends `connectionParams` there).
    {
      err: original,
      reference: mapped.failure.details?.reference,
      method: req.method,
      path: matchGatewayPath(pathOf(req.url)) ? GATEWAY_PATH : pathOf(req.url),
    },
    "unexpected error while serving a request",
  );
}
