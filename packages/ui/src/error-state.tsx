import { StateMessage } from "./state-message";

/**
 * A failed load: `Could not load <what>: <title>` and a next step. The app turns its client's
 * errors into `title` and `hint`; this package knows no transport.
 */
export function ErrorState({ what, title, hint }: { what: string; title: string; hint: string }) {
  return (
    <StateMessage kind="error" title={`Could not load ${what}: ${title}`}>
      <p>{hint}</p>
    </StateMessage>
  );
}
