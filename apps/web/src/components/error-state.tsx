import { describeError } from "../lib/describe-error";
import { StateMessage } from "./state-message";

/** The error panel for a failed query, with the server's message and a next step. */
export function ErrorState({ what, error }: { what: string; error: unknown }) {
  const { title, hint } = describeError(error);
  return (
    <StateMessage kind="error" title={`Could not load ${what}: ${title}`}>
      <p>{hint}</p>
    </StateMessage>
  );
}
