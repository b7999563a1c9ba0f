import type { ReactNode } from "react";
import styles from "./badge.module.css";

/** Colour of a badge by meaning, not by hue: ok (healthy), bad, warn, info (in progress), muted. */
export type TBadgeTone = "ok" | "bad" | "warn" | "info" | "muted";

/** A short status word in a pill, coloured by its meaning; the text alone must carry the meaning. */
export function Badge({
  tone,
  children,
  testId,
  title,
}: {
  tone: TBadgeTone;
  children: ReactNode;
  testId?: string;
  title?: string;
}) {
  return (
    <span className={`${styles.badge} ${styles[tone] ?? ""}`} data-testid={testId} title={title}>
      {children}
    </span>
  );
}
