import { StageFailure } from "@raas/engine";

/**
 * Why an inference call failed.
 * - `connection`: no connection, or it broke before a response arrived (no token produced). Retryable.
 * - `http-status`: the backend answered with a non-2xx status.
 * - `bad-response`: the body was not JSON or lacked a field we need (the message names it).
 * - `deadline`: the call's deadline passed.
 * - `aborted`: the caller aborted (job cancelled).
 * - `no-backend`: no backend can take traffic (none registered, all drained or circuits open).
 */
export type InferenceFailureReason =
  | "connection"
  | "http-status"
  | "bad-response"
  | "deadline"
  | "aborted"
  | "no-backend";

/** A typed `inference` stage failure. */
export class InferenceFailure extends StageFailure {
  readonly reason: InferenceFailureReason;
  readonly backendId: string | null;
  /** HTTP status for `http-status` failures. */
  readonly status: number | null;

  constructor(
    reason: InferenceFailureReason,
    message: string,
    options: { backendId?: string | null; status?: number | null; cause?: unknown } = {},
  ) {
    super("inference", message, { cause: options.cause });
    this.reason = reason;
    this.backendId = options.backendId ?? null;
    this.status = options.status ?? null;
  }

  /** Only connection failures before any token are retried. */
  get isRetryable(): boolean {
    return this.reason === "connection";
  }
}

export function isInferenceFailure(error: unknown): error is InferenceFailure {
  return error instanceof InferenceFailure;
}
