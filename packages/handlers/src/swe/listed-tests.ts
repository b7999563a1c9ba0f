import type { TestStatusMap } from "./test-status.types";

/**
 * What to make of a test run in which none of the instance's listed tests reported a result
 * (collection error, import error, wrong test command, missing dependency):
 * - `graded`: some listed test reported; grade as usual (a missing test fails).
 * - `check-reference`: none reported; run the gold patch the same way before deciding, since a
 *   model patch that breaks the package's imports (or one that lacks a name the new tests
 *   import) is the model's failure, while an environment that cannot run the tests is ours.
 * - `eval-error`: none reported and there is no other patch to compare with (this run was the
 *   gold patch, or the instance has none): the evaluation cannot be trusted.
 */
export type ListedTestsVerdict = "graded" | "check-reference" | "eval-error";

/** True when the log reported an outcome for at least one of `tests`. */
function reportsListedTests(statuses: TestStatusMap, tests: readonly string[]): boolean {
  return tests.some((test) => statuses.has(test));
}

export function judgeListedTests(input: {
  statuses: TestStatusMap;
  tests: readonly string[];
  /** This run already used the gold patch. */
  isReferenceRun: boolean;
  /** The instance has a gold patch to run instead. */
  hasReference: boolean;
}): ListedTestsVerdict {
  if (reportsListedTests(input.statuses, input.tests)) return "graded";
  if (input.isReferenceRun || !input.hasReference) return "eval-error";
  return "check-reference";
}
