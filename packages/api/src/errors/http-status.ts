import type { RequestFailureData, TRequestCode } from "@raas/shared";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";

/** The one mapping from request codes to HTTP statuses: only the API speaks HTTP. */
const HTTP_STATUS_OF: Record<TRequestCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNKNOWN_HANDLER_KIND: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** The HTTP status a request failure answers with. */
export function httpStatusOf(failure: RequestFailureData): number {
  return HTTP_STATUS_OF[failure.code];
}

/** The one mapping from request codes to tRPC error codes. */
export const TRPC_CODE_OF: Record<TRequestCode, TRPC_ERROR_CODE_KEY> = {
  BAD_REQUEST: "BAD_REQUEST",
  VALIDATION_FAILED: "BAD_REQUEST",
  UNKNOWN_HANDLER_KIND: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  METHOD_NOT_ALLOWED: "METHOD_NOT_SUPPORTED",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  UNAVAILABLE: "SERVICE_UNAVAILABLE",
  INTERNAL: "INTERNAL_SERVER_ERROR",
};
