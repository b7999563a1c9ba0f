import {
  FailureError,
  type InferenceFailureDetail,
  type StageFailureData,
  stageFailure,
  type TInferenceFailureReason,
} from "@raas/shared";

/** An `inference` stage failure that says what the backend did (`TInferenceFailureReason`). */
export type InferenceFailure = FailureError<StageFailureData & { inference: InferenceFailureDetail }>;

/** Fails an inference call: an `inference` stage failure with the backend's detail. */
export function inferenceFailure(
  reason: TInferenceFailureReason,
  message: string,
  options: { backendId?: string | null; status?: number | null; cause?: unknown } = {},
): InferenceFailure {
  const inference = { reason, backendId: options.backendId ?? null, status: options.status ?? null };
  return new FailureError(
    { ...stageFailure("inference", message).failure, inference },
    { cause: options.cause },
  );
}

/** True when `error` itself is an inference failure (as this package throws it), not a wrapper of one. */
export function isInferenceFailure(error: unknown): error is InferenceFailure {
  return (
    error instanceof FailureError &&
    error.failure.kind === "inference" &&
    error.failure.inference !== undefined
  );
}

/**
 * An outage rather than an answer: the connection failed before any token, or the server said it
 * cannot serve right now (502/503/504, e.g. while it restarts). Retried, elsewhere or later.
 */
export function isRetryable({ reason, status }: InferenceFailureDetail): boolean {
  if (reason === "connection") return true;
  return reason === "http-status" && status !== null && [502, 503, 504].includes(status);
}
