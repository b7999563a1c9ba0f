import type { ReactNode } from "react";
import styles from "./section.module.css";

/**
 * A titled part of a page: an `h2` the section is labelled by, an optional one-line description
 * (what the numbers mean, where they come from) and optional actions on the right.
 */
export function Section({
  id,
  title,
  description,
  actions,
  children,
  testId,
}: {
  /** Unique on the page; the heading's id is `${id}-heading`. */
  id: string;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  const headingId = `${id}-heading`;
  return (
    <section className={styles.section} aria-labelledby={headingId} data-testid={testId}>
      <div className={styles.header}>
        <h2 id={headingId} className={styles.title}>
          {title}
        </h2>
        {actions ? <div className={styles.actions}>{actions}</div> : null}
      </div>
      {description ? <p className={styles.description}>{description}</p> : null}
      {children}
    </section>
  );
}
