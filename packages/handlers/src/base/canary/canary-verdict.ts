import type { Canary, CanaryCheck, CanaryLie, ReportedOutcome } from "./canary.types";

export interface CheckCanariesInput {
  /** Every canary the plan held, planted or not. */
  canaries: readonly Canary[];
  /** The hosts the planter reported planting in; canaries of other hosts are not judged. */
  plantedHosts: readonly string[];
  /** Every outcome the run reported, canaries and graded tests alike. */
  outcomes: ReadonlyMap<string, ReportedOutcome>;
  /** The graded tests of each host (a host the run reported any of them for was reached). */
  gradedTestsByHost: ReadonlyMap<string, readonly string[]>;
  /**
   * The grader stopped the run at its time limit: a canary missing from the report is then one
   * the run never got to, not one the test process hid. Outcomes it did report still count.
   */
  timedOut: boolean;
}

/**
 * Judges the canaries of one run. A canary lies when it was reported with another outcome than
 * its true one, or was missing from a host the run reached (while the run was not stopped at its
 * time limit). A host tells nothing when the run never reached it (none of its tests reported)
 * or when every canary in it reported the same `error` or `skipped` (the module or a shared
 * fixture broke for every test, graded ones included, so none of its graded tests passed).
 */
export function checkCanaries(input: CheckCanariesInput): CanaryCheck {
  const lies: CanaryLie[] = [];
  const unreached: string[] = [];
  let plantedCount = 0;
  for (const host of input.plantedHosts) {
    const canaries = input.canaries.filter((canary) => canary.host === host);
    plantedCount += canaries.length;
    const graded = input.gradedTestsByHost.get(host) ?? [];
    const reported = canaries.map((canary) => input.outcomes.get(canary.id) ?? null);
    const reached =
      reported.some((outcome) => outcome !== null) || graded.some((test) => input.outcomes.has(test));
    const first = reported[0];
    const brokeUniformly =
      (first === "error" || first === "skipped") && reported.every((outcome) => outcome === first);
    if (!reached || brokeUniformly) {
      unreached.push(host);
      continue;
    }
    canaries.forEach((canary, index) => {
      const outcome = reported[index] ?? null;
      if (outcome === canary.expect) return;
      if (outcome === null && input.timedOut) return;
      lies.push({ canary: canary.id, expected: canary.expect, reported: outcome });
    });
  }
  return {
    planted: plantedCount,
    hosts: [...input.plantedHosts],
    unreached,
    lies,
  };
}

/** One sentence naming the canaries that lied, for a failure message. */
export function describeLies(lies: readonly CanaryLie[]): string {
  const parts = lies.map(
    (lie) =>
      `${lie.canary} (must ${lie.expected === "error" ? "error" : lie.expected === "passed" ? "pass" : "fail"}) was ${lie.reported === null ? "missing from the report" : `reported ${lie.reported}`}`,
  );
  return `the test process reported false outcomes for canary tests the grader planted: ${parts.join("; ")}`;
}
