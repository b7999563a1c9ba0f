import { type FailureError, policyFailure, type StageFailureData } from "@raas/shared";
import type { CanaryLie } from "./canary.types";
import { describeLies } from "./canary-verdict";

/**
 * The failure of a grade the canaries voided: the policy's doing (`agent`: trainable, reward 0),
 * labelled `tampered`, with the grader's report (which canary lied) kept on the job.
 */
export function tamperedFailure(lies: readonly CanaryLie[], report: unknown): FailureError<StageFailureData> {
  return policyFailure(`tampered: ${describeLies(lies)}`, { label: "tampered", result: report });
}
