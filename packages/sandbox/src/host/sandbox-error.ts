import { RaasError } from "@raas/shared";

/** Why a sandbox operation failed; the engine maps all of these to failure kind `sandbox`. */
export type SandboxFailureReason =
  | "start_failed"
  | "not_ready"
  | "crashed"
  | "closed"
  | "request_failed"
  | "forbidden"
  /** The disk holding the sandbox ran full during the call (infrastructure unless the policy filled it). */
  | "host_disk_full";

/**
 * A failure of a sandbox. Infrastructure by default; `causedByPolicy` marks the ones the agent's
 * own tool call caused (the sandbox died during it, or a limit such as its wall time ran out),
 * which the engine turns into an `agent` outcome with `policyReason`.
 */
export class SandboxError extends RaasError {
  readonly reason: SandboxFailureReason;
  causedByPolicy?: true;
  policyReason?: string;

  constructor(
    reason: SandboxFailureReason,
    message: string,
    options?: { details?: Record<string, unknown>; cause?: unknown },
  ) {
    super(reason === "forbidden" ? "FORBIDDEN" : "UNAVAILABLE", message, options);
    this.reason = reason;
  }
}

/** Marks `error` as caused by the agent's own tool call (see {@link SandboxError}). */
export function blamePolicy(error: SandboxError, reason: string): SandboxError {
  error.causedByPolicy = true;
  error.policyReason = reason;
  return error;
}
