import { FailureError, type RequestFailureData, requestFailure } from "./failure";

/**
 * Error codes of the one RaaS error model. Each maps to exactly one HTTP status.
 * - `BAD_REQUEST` (400): the request could not be understood (bad JSON, bad content type).
 * - `VALIDATION_FAILED` (400): the request parsed but a field is missing or has the wrong type.
 * - `UNKNOWN_HANDLER_KIND` (400): a job names a handler kind that is not registered.
 * - `UNAUTHORIZED` (401): no token, or a token that matches no role.
 * - `FORBIDDEN` (403): the token is valid but its role may not do this.
 * - `NOT_FOUND` (404): the job, backend or route does not exist.
 * - `METHOD_NOT_ALLOWED` (405): the route exists but not with this HTTP method.
 * - `CONFLICT` (409): the request contradicts current state (e.g. a job key reused with another kind).
 * - `PAYLOAD_TOO_LARGE` (413): the request body exceeds the server's limit.
 * - `UNSUPPORTED_MEDIA_TYPE` (415): the body is not JSON.
 * - `TOO_MANY_REQUESTS` (429): admission control rejected the request; retry later.
 * - `UNAVAILABLE` (503): the service is shutting down or a dependency is down.
 * - `INTERNAL` (500): a bug in RaaS. Never used for a caller's mistake.
 */
export const ERROR_CODES = {
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
} as const;

export type TErrorCode = keyof typeof ERROR_CODES;

/** @deprecated Being replaced by `requestFailure` (see `failure.ts`); carries the same failure. */
export class RaasError extends FailureError<RequestFailureData> {
  override readonly name: string = "RaasError";
  readonly code: TErrorCode;
  /** Optional structured detail safe to show to the caller (never a stack). */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: TErrorCode,
    message: string,
    options?: { details?: Record<string, unknown>; cause?: unknown },
  ) {
    const failure = requestFailure(code, message, { details: options?.details }).failure;
    super(failure, { cause: options?.cause });
    this.code = code;
    this.details = options?.details;
  }

  get httpStatus(): number {
    return ERROR_CODES[this.code];
  }
}

export function isRaasError(error: unknown): error is RaasError {
  return error instanceof RaasError;
}
