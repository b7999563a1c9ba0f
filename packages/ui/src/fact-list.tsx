import type { ReactNode } from "react";
import styles from "./fact-list.module.css";

export interface TFact {
  label: string;
  value: ReactNode;
  /** `data-testid` of the value. */
  testId?: string;
}

/** Label–value pairs in a grid (a `<dl>`), e.g. the limits in force or a record's fields. */
export function FactList({ facts, testId }: { facts: readonly TFact[]; testId?: string }) {
  return (
    <dl className={styles.facts} data-testid={testId}>
      {facts.map((fact) => (
        <div key={fact.label}>
          <dt className={styles.label}>{fact.label}</dt>
          <dd className={styles.value} data-testid={fact.testId}>
            {fact.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
