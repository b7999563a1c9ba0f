/** Terminal output helpers: JSON for scripts, aligned tables and bars for people. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function table(rows: ReadonlyArray<Record<string, string | number | null>>): string {
  if (rows.length === 0) return "";
  const columns = Object.keys(rows[0] as object);
  const cells = rows.map((row) => columns.map((c) => String(row[c] ?? "-")));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] as string).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i] as number)).join("  ");
  return [line(columns), ...cells.map(line)].join("\n");
}

/** A fixed-width bar of `value` out of `total`. */
export function bar(value: number, total: number, width = 30): string {
  const filled = total <= 0 ? 0 : Math.round((Math.min(value, total) / total) * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}]`;
}

export function formatMs(ms: number | null): string {
  if (ms === null) return "-";
  return ms >= 10_000 ? `${(ms / 1_000).toFixed(1)}s` : `${Math.round(ms)}ms`;
}
