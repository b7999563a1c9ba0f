/**
 * Canary tests: tests whose outcome the grader knows, planted beside the graded tests after the
 * policy's code is in place and run in the same process and session. The policy's code runs
 * inside the test process (a patch's package code, a solution module), so whatever that process
 * reports is suspect; a canary reported with any other outcome than its true one voids the grade
 * (`tampered`). See ARCHITECTURE.md, "Reward integrity".
 */

/** The true outcome of a canary: it must pass, fail (an assertion) or error (an exception or a broken fixture). */
export type CanaryExpectation = "passed" | "failed" | "error";

/** What a test run reported for one test, in one vocabulary across frameworks. */
export type ReportedOutcome = "passed" | "failed" | "error" | "skipped" | "xfail" | "xpass";

/** One planted canary. */
export interface Canary {
  /** The test's name as the framework reports it (a pytest node id, `test_x (mod.Class)`, `mod.Class.test_x`). */
  id: string;
  expect: CanaryExpectation;
  /** The file or module it was planted in (canaries are judged per host). */
  host: string;
}

/** A canary whose reported outcome was not its true one. */
export interface CanaryLie {
  canary: string;
  expected: CanaryExpectation;
  /** What the run reported; null when the canary was missing from a run that reached its host. */
  reported: ReportedOutcome | null;
}

/** What the canaries of one grading run showed; part of the grader's report. */
export interface CanaryCheck {
  /** Canaries planted in this run (0 when none could be: no host file to plant in). */
  planted: number;
  /** Files or modules they were planted in. */
  hosts: string[];
  /**
   * Hosts whose tests never ran at all (import or collection error, a whole module skipped or
   * broken by a failing shared fixture): their canaries prove nothing, and their graded tests
   * did not pass either.
   */
  unreached: string[];
  /** The canaries that lied; non-empty means the grade is void. */
  lies: CanaryLie[];
}

export function isTampered(check: CanaryCheck | null | undefined): boolean {
  return (check?.lies.length ?? 0) > 0;
}
