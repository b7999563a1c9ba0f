import type { TFailure, TFailureLabel } from "@raas/shared";

/** What each failure label means, in words a researcher reads next to a failed job. */
export const FAILURE_LABEL_MEANINGS: Record<TFailureLabel, string> = {
  tampered:
    "grade voided: a grader's canary tests reported a false outcome (reward 0, trainable; the result names the canary that lied)",
  misconfigured:
    "the job's own configuration failed, not the host (e.g. an MCP server its environment declares could not start): not trainable, not retried — fix the environment",
};

type TFailureShown = Pick<TFailure, "kind" | "stage" | "label">;

/** A failure in a table cell: `agent in eval`, with its label when it has one (`… · tampered`). */
export function failureCell(failure: TFailureShown | null): string {
  if (!failure) return "—";
  const where = `${failure.kind} in ${failure.stage}`;
  return failure.label ? `${where} · ${failure.label}` : where;
}

/** Just the kind and label, for narrow columns: `agent`, `agent · tampered`. */
export function failureKindCell(failure: TFailureShown | null): string {
  if (!failure) return "—";
  return failure.label ? `${failure.kind} · ${failure.label}` : failure.kind;
}

/** A failure as a fact on the trajectory page: kind, what its label means, and the message. */
export function failureFact(failure: (TFailureShown & Pick<TFailure, "message">) | null): string {
  if (!failure) return "—";
  const label = failure.label ? ` (${failure.label} — ${FAILURE_LABEL_MEANINGS[failure.label]})` : "";
  return `${failure.kind}${label}: ${failure.message}`;
}
