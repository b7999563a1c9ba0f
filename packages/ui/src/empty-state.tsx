import type { ReactNode } from "react";
import { StateMessage } from "./state-message";

/** Nothing to show yet: the title says what is missing, the children what to do about it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <StateMessage kind="empty" title={title}>
      {children}
    </StateMessage>
  );
}
