import type { BenchRow } from "./bench.types";

function cell(value: unknown): string {
  if (typeof value === "number") {
    if (Number.isInteger(value)) return String(value);
    return Math.abs(value) >= 100 ? value.toFixed(1) : value.toPrecision(3);
  }
  return value === null || value === undefined ? "-" : String(value);
}

/** Renders rows as an aligned plain-text table; columns are the union of row keys. */
export function formatTable(rows: readonly BenchRow[]): string {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  const body = rows.map((row) => columns.map((column) => cell(row[column])));
  const widths = columns.map((column, i) =>
    Math.max(column.length, ...body.map((line) => line[i]?.length ?? 0)),
  );
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
  return [line(columns), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}
