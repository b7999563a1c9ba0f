import { ErrorState as ErrorPanel } from "@raas/ui/error-state";
import { describeError } from "../lib/describe-error";

/** The error panel for a failed query, with the server's message and a next step. */
export function ErrorState({ what, error }: { what: string; error: unknown }) {
  const { title, hint } = describeError(error);
  return <ErrorPanel what={what} title={title} hint={hint} />;
}
