import { FailureError, type StageFailureData, stageFailure } from "@raas/shared";

/**
 * Why an inference call failed.
 * - `connection`: no connection, or it broke before a response arrived (no token produced).
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

/**
 * An `inference` stage failure (its `failure` is a stage failure of kind `inference`) that also
 * says what the backend did, for the pool's retry and circuit decisions.
 */
export class InferenceFailure extends FailureError<StageFailureData> {
  readonly reason: InferenceFailureReason;
  readonly backendId: string | null;
  /** HTTP status for `http-status` failures. */
  readonly status: number | null;

  constructor(
    reason: InferenceFailureReason,
    message: string,
    options: { backendId?: string | null; status?: number | null; cause?: unknown } = {},
  ) {
    super(stageFailure("inference", message).failure, { cause: options.cause });
    this.reason = reason;
    this.backendId = options.backendId ?? null;
    this.status = options.status ?? null;
  }

  /**
   * An outage rather than an answer: the connection failed before any token, or the server said it
   * cannot serve right now (502/503/504, e.g. while it restarts). Retried, elsewhere or later.
   */
  get isRetryable(): boolean {
    if (this.reason === "connection") return true;
    return this.reason === "http-status" && this.status !== null && [502, 503, 504].includes(this.status);
  }
}

export function isInferenceFailure(error: unknown): error is InferenceFailure {
  return error instanceof InferenceFailure;
}
