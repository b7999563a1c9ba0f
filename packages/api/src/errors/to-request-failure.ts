import {
  type Failure,
  failureOf,
  formatIssues,
  hasSchemaIssues,
  issuesAsDetails,
  type RequestFailureData,
  requestFailure,
  type TRequestCode,
} from "@raas/shared";
import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import type { ControlPlaneStoreHealth } from "../store-health.port";
import { isStoreUnavailable, storeUnavailableFailure } from "./store-unavailable";

/** tRPC's own codes for caller mistakes (thrown by tRPC itself, e.g. an unknown procedure). */
const REQUEST_CODE_OF_TRPC: Partial<Record<TRPC_ERROR_CODE_KEY, TRequestCode>> = {
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
  failure: RequestFailureData;
  /** True when the error was not a caller's mistake: log it with its stack. */
  isUnexpected: boolean;
  /** The original error, for the log. */
  original: unknown;
}

const referenceIds = new WeakMap<object, string>();

/**
 * Maps anything thrown while serving a request onto a request failure. A request failure keeps
 * its code and message (a sandbox's becomes `FORBIDDEN` or `UNAVAILABLE`); schema failures become
 * one sentence; a failure to reach the store during an outage of `storeHealth` becomes
 * `UNAVAILABLE` (503, retry later); everything else (a stage's or an abort's failure included)
 * becomes `INTERNAL` with a generic message and a reference id that also appears in the log.
 */
export function toRequestFailure(thrown: unknown, storeHealth?: ControlPlaneStoreHealth | null): MappedError {
  const failure = requestFailureFrom(failureOf(thrown));
  if (failure) return fromRequestFailure(failure, thrown, storeHealth);
  if (hasSchemaIssues(thrown))
    return { failure: validationFailure(thrown.issues), isUnexpected: false, original: thrown };
  if (thrown instanceof TRPCError) {
    const cause = thrown.cause;
    if (thrown.code === "BAD_REQUEST" && hasSchemaIssues(cause)) {
      return { failure: validationFailure(cause.issues), isUnexpected: false, original: thrown };
    }
    const code = REQUEST_CODE_OF_TRPC[thrown.code];
    if (code !== undefined) {
      const isJsonError = cause instanceof SyntaxError || thrown.code === "PARSE_ERROR";
      const message = isJsonError ? `the request is not valid JSON: ${thrown.message}` : thrown.message;
      return { failure: requestFailure(code, message).failure, isUnexpected: false, original: thrown };
    }
  }
  if (isStoreUnavailable(thrown, storeHealth))
    return { failure: storeUnavailableFailure(), isUnexpected: false, original: thrown };
  return { failure: internalFailure(thrown), isUnexpected: true, original: thrown };
}

/** A request's failure as it is; a sandbox's as the request code it always answered with. */
function requestFailureFrom(failure: Failure | null): RequestFailureData | null {
  if (failure?.kind === "request") return failure;
  if (failure?.kind !== "sandbox-error") return null;
  const code = failure.reason === "forbidden" ? "FORBIDDEN" : "UNAVAILABLE";
  return requestFailure(code, failure.message, { details: failure.details }).failure;
}

/**
 * A request failure as it is, unless it wraps a failure to reach the store during an outage (the
 * engine's "job not accepted" on a failed insert): that one answers like every other request the
 * outage failed, with the same sentence and `retry-after`.
 */
function fromRequestFailure(
  failure: RequestFailureData,
  thrown: unknown,
  storeHealth: ControlPlaneStoreHealth | null | undefined,
): MappedError {
  const isOutage =
    (failure.code === "UNAVAILABLE" || failure.code === "INTERNAL") &&
    causesOf(thrown).some((cause) => isStoreUnavailable(cause, storeHealth));
  if (isOutage) return { failure: storeUnavailableFailure(), isUnexpected: false, original: thrown };
  return { failure, isUnexpected: failure.code === "INTERNAL", original: thrown };
}

/** The errors under `thrown` along its cause chain (not `thrown` itself), nearest first. */
function causesOf(thrown: unknown): unknown[] {
  const causes: unknown[] = [];
  let current: unknown = thrown;
  while (causes.length < 8 && typeof current === "object" && current !== null && "cause" in current) {
    current = current.cause;
    if (current === undefined) break;
    causes.push(current);
  }
  return causes;
}

function validationFailure(issues: Parameters<typeof formatIssues>[0]): RequestFailureData {
  return requestFailure("VALIDATION_FAILED", formatIssues(issues), {
    details: { issues: issuesAsDetails(issues) },
  }).failure;
}

function internalFailure(thrown: unknown): RequestFailureData {
  const key = typeof thrown === "object" && thrown !== null ? thrown : null;
  let ref = key ? referenceIds.get(key) : undefined;
  if (!ref) {
    ref = `err_${Math.random().toString(36).slice(2, 10)}`;
    if (key) referenceIds.set(key, ref);
  }
  return requestFailure("INTERNAL", `internal error (reference ${ref}); the server log has the details`, {
    details: { reference: ref },
  }).failure;
}
