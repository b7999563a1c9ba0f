import { emptyStepStats, type TStepStats, ZStepStats } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { addWaste, laterWasteEntry } from "./step-stats";

/** A step's stats as stored before the `tampered` ledger entry existed. */
function storedBefore(): TStepStats {
  const stats = emptyStepStats();
  const { tampered: _tampered, ...waste } = stats.waste;
  return { ...stats, waste: waste as TStepStats["waste"] };
}

describe("the tampered waste entry on steps stored before it existed", () => {
  it("reads as empty through the schema and is created when a voided grade is counted", () => {
    expect(ZStepStats.parse(storedBefore()).waste.tampered).toEqual({
      jobs: 0,
      rolloutSeconds: 0,
      generatedTokens: 0,
    });
    const stats = storedBefore();
    addWaste(laterWasteEntry(stats, "tampered"), { rolloutMs: 1_500, generatedTokens: 40 });
    addWaste(laterWasteEntry(stats, "tampered"), { rolloutMs: 250, generatedTokens: 2 });
    expect(stats.waste.tampered).toEqual({ jobs: 2, rolloutSeconds: 1.75, generatedTokens: 42 });
  });
});
