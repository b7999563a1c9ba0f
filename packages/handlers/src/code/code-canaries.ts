import { type CanaryCheck, type CanaryPlan, checkCanaries, type ReportedOutcome } from "../base/canary/index";
import type { CodeCaseResult } from "./code-verdict";

const SEVERITY: Record<string, number> = { passed: 0, failed: 1, error: 1 };

/**
 * Splits a unittest run's rows into the graded cases and the canaries' check. A test reported
 * twice keeps its worse outcome (a forged `passed` row cannot hide the runner's own `failed`).
 */
export function judgeUnittestCanaries(input: {
  rows: readonly CodeCaseResult[];
  plan: CanaryPlan;
  plantedHosts: readonly string[];
  timedOut: boolean;
}): { cases: CodeCaseResult[]; canaries: CanaryCheck } {
  const canaryIds = new Set(input.plan.canaries.map((canary) => canary.id));
  const outcomes = new Map<string, ReportedOutcome>();
  for (const row of input.rows) {
    const outcome: ReportedOutcome =
      row.status === "passed" ? "passed" : row.status === "error" ? "error" : "failed";
    const previous = outcomes.get(row.name);
    if (previous === undefined || (SEVERITY[outcome] ?? 1) >= (SEVERITY[previous] ?? 1))
      outcomes.set(row.name, outcome);
  }
  const cases = worstPerName(input.rows.filter((row) => !canaryIds.has(row.name)));
  const graded = cases.map((row) => row.name).filter((name) => name !== "suite" && name !== "import");
  const gradedTestsByHost = new Map<string, string[]>();
  for (const host of input.plantedHosts) {
    gradedTestsByHost.set(
      host,
      graded.filter((name) => name.startsWith(`${host}.`)),
    );
  }
  const canaries = checkCanaries({
    canaries: input.plan.canaries,
    plantedHosts: input.plantedHosts,
    outcomes,
    gradedTestsByHost,
    timedOut: input.timedOut,
  });
  return { cases, canaries };
}

/** One row per test name, keeping the worse outcome (first-seen order). */
function worstPerName(rows: readonly CodeCaseResult[]): CodeCaseResult[] {
  const byName = new Map<string, CodeCaseResult>();
  for (const row of rows) {
    const previous = byName.get(row.name);
    if (previous === undefined || (SEVERITY[row.status] ?? 1) > (SEVERITY[previous.status] ?? 1)) {
      byName.set(row.name, row);
    }
  }
  return [...byName.values()];
}
