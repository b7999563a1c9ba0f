import type { TStep, TWasteLedger } from "@raas/shared";

/** What the waste ledger is measured in: rollout-seconds (INIT + RUN + EVAL) or generated tokens. */
export type TWasteUnit = "seconds" | "tokens";

/** The ledger's entries, in stacking order, with their legend names. */
export const WASTE_CATEGORIES = [
  { key: "cancelled", label: "cancelled (redundant)" },
  { key: "zeroVariance", label: "zero-variance groups" },
  { key: "stale", label: "stale samples" },
  { key: "infraFailures", label: "infrastructure failures" },
  { key: "uncertified", label: "uncertified traces" },
  { key: "expiredLongShots", label: "long shots let go" },
  { key: "tampered", label: "voided grades (tampered)" },
] as const satisfies ReadonlyArray<{ key: keyof TWasteLedger; label: string }>;

/** Reads a unit from the query string; anything else is rollout-seconds. */
export function parseWasteUnit(value: string | null): TWasteUnit {
  return value === "tokens" ? "tokens" : "seconds";
}

/** One stacked bar per step: each ledger entry in `unit` (seconds rounded to 0.1 s). */
export function wasteRows(
  steps: readonly Pick<TStep, "index" | "stats">[],
  unit: TWasteUnit,
): Array<Record<string, number>> {
  return steps.map((step) => {
    const row: Record<string, number> = { step: step.index };
    for (const { key } of WASTE_CATEGORIES) {
      const entry = step.stats.waste[key];
      row[key] = unit === "tokens" ? entry.generatedTokens : Math.round(entry.rolloutSeconds * 10) / 10;
    }
    return row;
  });
}

/** The whole ledger of the steps in `unit`, summed over entries. */
export function totalWaste(steps: readonly Pick<TStep, "stats">[], unit: TWasteUnit): number {
  let total = 0;
  for (const step of steps) {
    for (const { key } of WASTE_CATEGORIES) {
      const entry = step.stats.waste[key];
      total += unit === "tokens" ? entry.generatedTokens : entry.rolloutSeconds;
    }
  }
  return total;
}
