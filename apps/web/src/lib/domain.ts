import type { TFailureKind, TFailureLabel, TJobStatus, TSandboxState, TStage } from "@raas/shared";

/*
 * Browser-side copies of `@raas/shared`'s constants. Importing values from `@raas/shared` would
 * bundle its whole barrel, including `newId` and with it a 600 kB `node:crypto` polyfill. The
 * checks below fail to compile when a list drifts from the shared union type.
 */

export const JOB_STATUSES = ["submitted", "queued", "active", "completed", "failed", "cancelled"] as const;
export const STAGES = ["init", "run", "eval"] as const;
export const FAILURE_KINDS = ["timeout", "sandbox", "inference", "eval", "agent", "cancelled"] as const;
export const FAILURE_LABELS = ["tampered", "misconfigured"] as const;
export const SANDBOX_STATES = ["starting", "ready", "busy", "closing", "closed", "failed"] as const;

type Covers<TUnion extends string, TList extends readonly TUnion[]> = [
  Exclude<TUnion, TList[number]>,
] extends [never]
  ? true
  : false;
const statusesCovered: Covers<TJobStatus, typeof JOB_STATUSES> = true;
const stagesCovered: Covers<TStage, typeof STAGES> = true;
const failureKindsCovered: Covers<TFailureKind, typeof FAILURE_KINDS> = true;
const sandboxStatesCovered: Covers<TSandboxState, typeof SANDBOX_STATES> = true;
const failureLabelsCovered: Covers<TFailureLabel, typeof FAILURE_LABELS> = true;
void [statusesCovered, stagesCovered, failureKindsCovered, sandboxStatesCovered, failureLabelsCovered];

export function isTerminalStatus(status: TJobStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** Exhaustiveness guard for `switch` statements over unions. */
export function assertNever(value: never, what = "value"): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}

/** Failure kinds counted as failures; `cancelled` is counted (and shown) on its own. */
export const FAILED_KINDS = FAILURE_KINDS.filter(
  (kind): kind is Exclude<TFailureKind, "cancelled"> => kind !== "cancelled",
);

/** Only `agent` failures are the policy's own fault, and so still trainable. */
export function isTrainableFailure(kind: TFailureKind): boolean {
  return kind === "agent";
}
