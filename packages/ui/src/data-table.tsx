import type { ReactNode } from "react";
import styles from "./data-table.module.css";

/** One column: its header, how a row renders in it, and whether it holds numbers (right-aligned). */
export interface TDataColumn<TRow> {
  key: string;
  header: ReactNode;
  cell: (row: TRow) => ReactNode;
  isNumeric?: boolean;
  /** `data-testid` of the cell in each row, given the row. */
  cellTestId?: (row: TRow) => string;
}

/**
 * A table of rows under column headers, scrolling sideways inside its box when too wide for the
 * page (so the page itself stays usable at 1280 px). The caption names the table for screen readers.
 */
export function DataTable<TRow>({
  caption,
  columns,
  rows,
  rowKey,
  rowTestId,
  testId,
}: {
  caption: string;
  columns: ReadonlyArray<TDataColumn<TRow>>;
  rows: readonly TRow[];
  rowKey: (row: TRow) => string;
  rowTestId?: (row: TRow) => string;
  testId?: string;
}) {
  return (
    // Focusable and named, so keyboard users can scroll a table wider than the page.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
    <section className={styles.scroller} aria-label={caption} tabIndex={0}>
      <table className={styles.table} data-testid={testId}>
        <caption className={styles.caption}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col" className={column.isNumeric ? styles.numeric : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId?.(row)}>
              {columns.map((column) => (
                <td
                  key={column.key}
                  className={column.isNumeric ? styles.numeric : undefined}
                  data-testid={column.cellTestId?.(row)}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
