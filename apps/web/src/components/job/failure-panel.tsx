import type { TFailure } from "@raas/shared";
import { isTrainableFailure } from "../../lib/domain";

/** Why the job failed or was cancelled: kind, stage and the message; nothing when it did not. */
export function FailurePanel({ failure }: { failure: TFailure | null }) {
  if (failure === null) return null;
  const isTrainable = isTrainableFailure(failure.kind);
  return (
    <section aria-labelledby="failure-heading" className="failure-panel" data-testid="failure-panel">
      <h2 id="failure-heading">{failure.kind === "cancelled" ? "Cancellation" : "Failure"}</h2>
      <p>
        <strong data-testid="failure-kind">{failure.kind}</strong> in <strong>{failure.stage}</strong>
        {isTrainable ? " — the policy's own fault, so the trajectory is still trainable." : null}
      </p>
      <pre className="message">{failure.message}</pre>
    </section>
  );
}
