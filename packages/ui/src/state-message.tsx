import type { ReactNode } from "react";
import styles from "./state-message.module.css";

export type TStateKind = "loading" | "empty" | "error";

/**
 * A loading, empty or error panel that says what is happening and what to do next. Errors are
 * announced at once (`role="alert"`), the others politely (`role="status"`).
 */
export function StateMessage({
  kind,
  title,
  children,
}: {
  kind: TStateKind;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div
      className={`${styles.message} ${kind === "error" ? styles.error : ""}`}
      role={kind === "error" ? "alert" : "status"}
      data-testid={`state-${kind}`}
    >
      <p className={styles.title}>{title}</p>
      {children ? <div className={styles.detail}>{children}</div> : null}
    </div>
  );
}
