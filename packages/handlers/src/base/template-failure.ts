import { failureOf, isStageFailureData } from "@raas/shared";

/**
 * What a group does when the INIT that prepares its template fails:
 * - `share`: the task's own fault (a setup step exits non-zero on the clean repository, the
 *   instance has no repository: `eval`; or `agent`). Every member would meet it the same way, so
 *   each member fails with this same failure and nobody runs the INIT again.
 * - `retry`: infrastructure (`sandbox`, `timeout`, `inference`, an unclassified error, an abort).
 *   It may not happen twice, so the template is dropped and the next member prepares it anew.
 */
export type TemplateFailureAction = "share" | "retry";

export function templateFailureAction(error: unknown): TemplateFailureAction {
  const failure = failureOf(error);
  if (!isStageFailureData(failure)) return "retry";
  switch (failure.kind) {
    case "eval":
    case "agent":
      return "share";
    default:
      return "retry";
  }
}
