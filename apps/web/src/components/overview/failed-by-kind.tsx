import { FAILED_KINDS, isTrainableFailure } from "../../lib/domain";
import type { TStatsView } from "../../trpc/router-types";

/** Failure counts per kind; `agent` failures are trainable, the others are infrastructure. Cancellations are a total of their own. */
export function FailedByKind({ failedByKind }: { failedByKind: TStatsView["failedByKind"] }) {
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
          </tr>
        </thead>
        <tbody>
          <tr>
            {FAILED_KINDS.map((kind) => (
              <td key={kind} data-testid={`failed-${kind}`}>
                {failedByKind[kind] ?? 0}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </section>
  );
}
