import type { ReactNode } from "react";
import styles from "./card-grid.module.css";

/** Cards in as many equal columns as fit (at least `minWidthPx` each); wraps at narrow widths. */
export function CardGrid({ children, minWidthPx = 160 }: { children: ReactNode; minWidthPx?: number }) {
  return (
    <div
      className={styles.grid}
      style={{ gridTemplateColumns: `repeat(auto-fit, minmax(${minWidthPx}px, 1fr))` }}
    >
      {children}
    </div>
  );
}
