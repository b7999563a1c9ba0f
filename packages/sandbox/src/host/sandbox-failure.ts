import { FailureError, type SandboxFailureData } from "@raas/shared";

/** True when `error` itself is a sandbox failure (as this package throws it), not a wrapper of one. */
export function isSandboxFailure(error: unknown): error is FailureError<SandboxFailureData> {
  return error instanceof FailureError && error.failure.kind === "sandbox-error";
}
