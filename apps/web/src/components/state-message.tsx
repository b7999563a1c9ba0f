import type { ReactNode } from "react";

/** A loading, empty or error panel that says what is happening and what to do next. */
export function StateMessage({
  kind,
  title,
  children,
}: {
  kind: "loading" | "empty" | "error";
  title: string;
  children?: ReactNode;
}) {
  return (
    <div
      className={`state-message state-${kind}`}
      role={kind === "error" ? "alert" : "status"}
      data-testid={`state-${kind}`}
    >
      <p className="state-title">{title}</p>
      {children ? <div className="state-detail">{children}</div> : null}
    </div>
  );
}
