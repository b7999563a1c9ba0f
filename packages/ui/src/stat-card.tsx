import type { ReactNode } from "react";
import styles from "./stat-card.module.css";

/** One headline number with its label and an optional line of context below it. */
export function StatCard({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  /** `data-testid` of the value, so tests read the number itself. */
  testId?: string;
}) {
  return (
    <article className={styles.card}>
      <h3 className={styles.label}>{label}</h3>
      <p className={styles.value} data-testid={testId}>
        {value}
      </p>
      {hint ? <p className={styles.hint}>{hint}</p> : null}
    </article>
  );
}
