import { RaasError } from "@raas/shared";

/** Why a sandbox operation failed; the engine maps all of these to failure kind `sandbox`. */
export type SandboxFailureReason =
  | "start_failed"
  | "not_ready"
  | "crashed"
  | "closed"
  | "request_failed"
  | "forbidden";

/** An infrastructure failure of a sandbox (never the agent's fault). */
export class SandboxError extends RaasError {
  readonly reason: SandboxFailureReason;

  constructor(
    reason: SandboxFailureReason,
    message: string,
    options?: { details?: Record<string, unknown>; cause?: unknown },
  ) {
    super(reason === "forbidden" ? "FORBIDDEN" : "UNAVAILABLE", message, options);
    this.reason = reason;
  }
}
