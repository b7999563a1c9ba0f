import { FAILED_KINDS, FAILURE_LABELS, isTrainableFailure } from "../../lib/domain";
import { FAILURE_LABEL_MEANINGS } from "../../lib/failure-text";
import type { TStatsView } from "../../trpc/router-types";

/**
 * Failure counts per kind; `agent` failures are trainable, the others are infrastructure.
 * Labelled failures are a part of their kind, shown after the kinds: `tampered` of `agent` (a
 * grade voided because a canary lied), `misconfigured` of `sandbox` (the job's own configuration). Cancellations are a total of their own.
 */
export function FailedByKind({
  failedByKind,
  failedByLabel,
}: {
  failedByKind: TStatsView["failedByKind"];
  failedByLabel: TStatsView["failedByLabel"];
}) {
  return (
    <section aria-labelledby="failed-heading">
      <h2 id="failed-heading">Failed by kind</h2>
      <table className="table compact">
        <thead>
          <tr>
            {FAILED_KINDS.map((kind) => (
              <th key={kind} scope="col">
                {kind}
                {isTrainableFailure(kind) ? " (trainable)" : null}
              </th>
            ))}
            {FAILURE_LABELS.map((label) => (
              <th key={label} scope="col" title={FAILURE_LABEL_MEANINGS[label]}>
                of which {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            {FAILED_KINDS.map((kind) => (
              <td key={kind} data-testid={`failed-${kind}`}>
                {failedByKind[kind] ?? 0}
              </td>
            ))}
            {FAILURE_LABELS.map((label) => (
              <td key={label} data-testid={`failed-label-${label}`}>
                {failedByLabel[label] ?? 0}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </section>
  );
}
