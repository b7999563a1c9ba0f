// Judging a bench's summary against its declared targets (bench-targets.ts): pure functions.
import { assertNever } from "@raas/shared";
import type { BenchRow } from "../bench.types";
import type { BenchTarget, BenchTargets } from "./bench-targets";

type Summary = Readonly<Record<string, string | number | boolean | null>>;

type TargetStatus = "met" | "missed" | "not run";

export interface TargetVerdict {
  bench: string;
  key: string;
  /** The target as text, e.g. `>= 0.9` or `== forgingAttemptsReachingRun (12)`. */
  target: string;
  /** The figure the summary gave, or why there is none. */
  figure: number | string;
  status: TargetStatus;
}

/** Whether `figure` meets `target` against `threshold` (the target's number, or the figure it names). */
export function isTargetMet(target: Pick<BenchTarget, "op">, figure: number, threshold: number): boolean {
  if (!Number.isFinite(figure) || !Number.isFinite(threshold)) return false;
  switch (target.op) {
    case ">=":
      return figure >= threshold;
    case "<=":
      return figure <= threshold;
    case "<":
      return figure < threshold;
    case "==":
      return figure === threshold;
    default:
      return assertNever(target.op, "target operator");
  }
}

/** Whether a number meets a target with a numeric threshold (for a bench judging its own figure). */
export function meetsTarget(target: BenchTarget, figure: number): boolean {
  if (typeof target.value !== "number") throw new Error(`target "${target.key}" compares two keys`);
  return isTargetMet(target, figure, target.value);
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(3)));
}

/** The target as text: `>= 0.9`, `< 200`, `== forgingAttemptsReachingRun`. */
export function describeTarget(target: BenchTarget): string {
  const value = typeof target.value === "number" ? formatNumber(target.value) : target.value.key;
  return `${target.op} ${value}`;
}

/** Judges one target against a bench's summary; a missing or non-numeric figure is a miss. */
export function judgeTarget(bench: string, target: BenchTarget, summary: Summary): TargetVerdict {
  const figure = summary[target.key];
  const base = { bench, key: target.key, target: describeTarget(target) };
  if (typeof figure !== "number") {
    const why = figure === undefined ? "no such summary key" : `not a number: ${String(figure)}`;
    return { ...base, figure: why, status: "missed" };
  }
  let threshold: number;
  if (typeof target.value === "number") threshold = target.value;
  else {
    const reference = summary[target.value.key];
    if (typeof reference !== "number")
      return { ...base, figure, status: "missed", target: `${base.target} (no figure)` };
    threshold = reference;
    base.target = `${base.target} (${formatNumber(reference)})`;
  }
  return { ...base, figure, status: isTargetMet(target, figure, threshold) ? "met" : "missed" };
}

/** The outcome of running one bench: its summary, or why it has none. */
export type BenchOutcome =
  | { kind: "ran"; summary: Summary }
  | { kind: "failed"; reason: string }
  | { kind: "skipped"; reason: string };

/** Every target of one bench judged against its outcome: a failed run misses them all. */
export function judgeBench(entry: BenchTargets, outcome: BenchOutcome): TargetVerdict[] {
  if (outcome.kind === "ran") return entry.targets.map((t) => judgeTarget(entry.bench, t, outcome.summary));
  const status: TargetStatus = outcome.kind === "failed" ? "missed" : "not run";
  return entry.targets.map((target) => ({
    bench: entry.bench,
    key: target.key,
    target: describeTarget(target),
    figure: outcome.reason,
    status,
  }));
}

/** One table row per target: bench, key, target, figure, met/missed. */
export function verdictRows(verdicts: readonly TargetVerdict[]): BenchRow[] {
  return verdicts.map((v) => ({
    name: v.bench,
    key: v.key,
    target: v.target,
    figure: v.figure,
    verdict: v.status,
  }));
}

/** Counts and the missed keys, for the report's summary. */
export function verdictSummary(
  verdicts: readonly TargetVerdict[],
): Record<string, string | number | boolean> {
  const missed = verdicts.filter((v) => v.status === "missed");
  const met = verdicts.filter((v) => v.status === "met").length;
  return {
    targets: verdicts.length,
    met,
    missed: missed.length,
    notRun: verdicts.filter((v) => v.status === "not run").length,
    // Every target that ran was met; a run of nothing has met nothing.
    allMet: missed.length === 0 && met > 0,
    missedKeys: missed.map((v) => `${v.bench} ${v.key}`).join("; ") || "none",
  };
}

/** 1 when a target was missed (unless the caller only reports), else 0; a target not run is no miss. */
export function targetsExitCode(verdicts: readonly TargetVerdict[], isReportOnly: boolean): number {
  return !isReportOnly && verdicts.some((v) => v.status === "missed") ? 1 : 0;
}
