import { formatIssues, hasSchemaIssues, issuesAsDetails, RaasError, type TErrorCode } from "@raas/shared";
import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import type { ControlPlaneStoreHealth } from "../store-health.port";
import { isStoreUnavailable, storeUnavailableError } from "./store-unavailable";

/** The one mapping from RaaS error codes to tRPC error codes (HTTP status follows from ERROR_CODES). */
export const TRPC_CODE_OF: Record<TErrorCode, TRPC_ERROR_CODE_KEY> = {
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

/** tRPC's own codes for caller mistakes (thrown by tRPC itself, e.g. an unknown procedure). */
const RAAS_CODE_OF_TRPC: Partial<Record<TRPC_ERROR_CODE_KEY, TErrorCode>> = {
  PARSE_ERROR: "BAD_REQUEST",
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  METHOD_NOT_SUPPORTED: "METHOD_NOT_ALLOWED",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  UNPROCESSABLE_CONTENT: "VALIDATION_FAILED",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  CLIENT_CLOSED_REQUEST: "BAD_REQUEST",
  SERVICE_UNAVAILABLE: "UNAVAILABLE",
};

/** What a caller may see of any error, and whether it was a bug that must be logged. */
export interface MappedError {
  error: RaasError;
  /** True when the error was not a caller's mistake: log it with its stack. */
  isUnexpected: boolean;
  /** The original error, for the log. */
  original: unknown;
}

const referenceIds = new WeakMap<object, string>();

/**
 * Maps anything thrown while serving a request onto the one error model. Caller mistakes keep
 * their code and message; schema failures become one sentence; a failure to reach the store
 * during an outage of `storeHealth` becomes `UNAVAILABLE` (503, retry later); everything else
 * becomes `INTERNAL` with a generic message and a reference id that also appears in the log.
 */
export function toRaasError(thrown: unknown, storeHealth?: ControlPlaneStoreHealth | null): MappedError {
  if (thrown instanceof RaasError) return fromRaasError(thrown, storeHealth);
  if (hasSchemaIssues(thrown))
    return { error: validationError(thrown.issues), isUnexpected: false, original: thrown };
  if (thrown instanceof TRPCError) {
    const cause = thrown.cause;
    if (cause instanceof RaasError) return fromRaasError(cause, storeHealth);
    if (thrown.code === "BAD_REQUEST" && hasSchemaIssues(cause)) {
      return { error: validationError(cause.issues), isUnexpected: false, original: thrown };
    }
    const code = RAAS_CODE_OF_TRPC[thrown.code];
    if (code !== undefined) {
      const isJsonError = cause instanceof SyntaxError || thrown.code === "PARSE_ERROR";
      const message = isJsonError ? `the request is not valid JSON: ${thrown.message}` : thrown.message;
      return { error: new RaasError(code, message), isUnexpected: false, original: thrown };
    }
  }
  if (isStoreUnavailable(thrown, storeHealth))
    return { error: storeUnavailableError(thrown), isUnexpected: false, original: thrown };
  return { error: internalError(thrown), isUnexpected: true, original: thrown };
}

/**
 * A RaaS error as it is, unless it wraps a failure to reach the store during an outage (the
 * engine's "job not accepted" on a failed insert): that one answers like every other request the
 * outage failed, with the same sentence and `retry-after`.
 */
function fromRaasError(
  error: RaasError,
  storeHealth: ControlPlaneStoreHealth | null | undefined,
): MappedError {
  const isOutage =
    (error.code === "UNAVAILABLE" || error.code === "INTERNAL") &&
    error.cause !== undefined &&
    isStoreUnavailable(error.cause, storeHealth);
  if (isOutage) return { error: storeUnavailableError(error), isUnexpected: false, original: error };
  return { error, isUnexpected: error.code === "INTERNAL", original: error };
}

function validationError(issues: Parameters<typeof formatIssues>[0]): RaasError {
  return new RaasError("VALIDATION_FAILED", formatIssues(issues), {
    details: { issues: issuesAsDetails(issues) },
  });
}

function internalError(thrown: unknown): RaasError {
  const key = typeof thrown === "object" && thrown !== null ? thrown : null;
  let ref = key ? referenceIds.get(key) : undefined;
  if (!ref) {
    ref = `err_${Math.random().toString(36).slice(2, 10)}`;
    if (key) referenceIds.set(key, ref);
  }
  return new RaasError("INTERNAL", `internal error (reference ${ref}); the server log has the details`, {
    details: { reference: ref },
  });
}
