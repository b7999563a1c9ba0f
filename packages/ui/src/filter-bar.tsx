import type { ReactNode } from "react";
import styles from "./filter-bar.module.css";

/** A row of filters (a fieldset named by `legend` for screen readers); wraps at narrow widths. */
export function FilterBar({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className={styles.bar}>
      <legend className={styles.legend}>{legend}</legend>
      {children}
    </fieldset>
  );
}
