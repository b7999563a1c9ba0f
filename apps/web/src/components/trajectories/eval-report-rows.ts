/** One test of an evaluation report: its category, name and whether it passed. */
export interface TEvalTestRow {
  category: "FAIL_TO_PASS" | "PASS_TO_PASS";
  test: string;
  passed: boolean;
}

const CATEGORIES = ["FAIL_TO_PASS", "PASS_TO_PASS"] as const;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/**
 * The per-test rows of a SWE-style evaluation report (`result.testsStatus.FAIL_TO_PASS.success`
 * and `.failure`, likewise PASS_TO_PASS), or null when the result carries none (math, code, sleep).
 */
export function evalReportRows(result: unknown): TEvalTestRow[] | null {
  if (typeof result !== "object" || result === null) return null;
  const status = (result as { testsStatus?: unknown }).testsStatus;
  if (typeof status !== "object" || status === null) return null;
  const rows: TEvalTestRow[] = [];
  for (const category of CATEGORIES) {
    const split = (status as Record<string, unknown>)[category];
    if (typeof split !== "object" || split === null) continue;
    const { success, failure } = split as { success?: unknown; failure?: unknown };
    for (const test of strings(success)) rows.push({ category, test, passed: true });
    for (const test of strings(failure)) rows.push({ category, test, passed: false });
  }
  return rows;
}
