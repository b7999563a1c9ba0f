import type { SweBenchmarkOutcome } from "@raas/handlers";
import { printJson } from "../output";
import { sweEvalCounts } from "./swe-eval-output";

/** Where the outcome went: the written files, and whether the server stored the run. */
export interface EvalSweWritten {
  runId: string;
  isStored: boolean;
  summaryPath: string;
  predictionsPath: string;
}

/** Prints the outcome: JSON with `--json`, else the counts, each error and where things are. */
export function printEvalSweOutcome(
  outcome: SweBenchmarkOutcome,
  written: EvalSweWritten,
  json: boolean,
): void {
  const { runId, summaryPath, predictionsPath } = written;
  const counts = sweEvalCounts(outcome);
  if (json) {
    printJson({
      runId,
      stored: written.isStored,
      summary: counts,
      errors: outcome.errors,
      predictions: predictionsPath,
      report: summaryPath,
    });
    return;
  }
  console.log(
    `resolved ${counts.resolved}/${counts.total} (${(counts.resolvedRate * 100).toFixed(1)} %)  ` +
      `unresolved ${counts.unresolved}  empty patch ${counts.emptyPatch}  errors ${counts.errors}`,
  );
  for (const [instanceId, reason] of Object.entries(outcome.errors))
    console.log(`  error ${instanceId}: ${reason}`);
  console.log(`predictions: ${predictionsPath}\nreport:      ${summaryPath}`);
  if (written.isStored) console.log(`stored run:  ${runId}   (GET /api/v1/benchmarks/${runId})`);
}
