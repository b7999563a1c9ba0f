"use client";

import { StateMessage } from "@raas/ui/state-message";

/** Last-resort boundary: a rendering bug, not a failed request (those have their own states). */
export default function PageError({ error, reset }: { error: Error; reset: () => void }) {
  return (
    <StateMessage kind="error" title={`This page broke: ${error.message}`}>
      <p>
        <button type="button" onClick={reset}>
          Try again
        </button>{" "}
        — if it keeps happening, reload the page and report the message above.
      </p>
    </StateMessage>
  );
}
