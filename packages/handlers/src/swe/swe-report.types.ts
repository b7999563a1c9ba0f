import type { CanaryCheck } from "../base/canary/index";
import type { TestFramework } from "./test-framework";
import type { TestStatus } from "./test-status.types";

/** Tests of one category split by outcome, in the instance's order. */
export interface SweTestSplit {
  success: string[];
  failure: string[];
}

/** SWE-bench's `tests_status`. FAIL_TO_FAIL / PASS_TO_FAIL are filled only when the instance lists them. */
export interface SweTestsStatus {
  FAIL_TO_PASS: SweTestSplit;
  PASS_TO_PASS: SweTestSplit;
  FAIL_TO_FAIL: SweTestSplit;
  PASS_TO_FAIL: SweTestSplit;
}

/** How the model patch went in: `git apply`, the `patch --fuzz` fallback, or not at all. */
export type PatchApplyMethod = "git-apply" | "patch-fuzz" | null;

/** The evaluation of one model patch on one instance; stored as the job's result. */
export interface SweEvalReport {
  instanceId: string;
  /** Every FAIL_TO_PASS and PASS_TO_PASS test passed. Reward = resolved ? 1 : 0. */
  resolved: boolean;
  /** The model left no change in the repository. */
  emptyPatch: boolean;
  /** Neither `git apply` nor `patch --fuzz` could apply the model patch. */
  failedApplyPatch: boolean;
  /** The test run exceeded its time budget; tests it never reached count as failures. */
  testTimeout: boolean;
  patchApplyMethod: PatchApplyMethod;
  testsStatus: SweTestsStatus;
  /** Every outcome the log parser found, including tests outside both lists. */
  testStatuses: Record<string, TestStatus>;
  framework: TestFramework | null;
  testCommand: string | null;
  testExitCode: number | null;
  /** `python3 --version` and pytest's version inside the evaluation sandbox (null: not installed). */
  pythonVersion: string | null;
  pytestVersion: string | null;
  /** The model patch that was evaluated; null when the rollout produced none. */
  modelPatch: string | null;
  /**
   * Test-infrastructure files (pytest configuration, conftest.py, interpreter start-up hooks,
   * compiled modules) the model patch added or changed, put back to the base commit before the run.
   */
  reverted: string[];
  /** What the canaries planted beside the graded tests showed; null when the tests did not run. */
  canaries: CanaryCheck | null;
  /**
   * A canary was reported with a false outcome: the test process lied, so the grade is void
   * (never resolved; the handler fails the job as the policy's `tampered`).
   */
  tampered: boolean;
  /** The last few KiB of the test log (and patch output when applying failed), for people. */
  logTail: string;
}

/** SWE-bench's per-instance report entry. */
export interface SweBenchReportEntry {
  patch_is_None: boolean;
  patch_exists: boolean;
  patch_successfully_applied: boolean;
  resolved: boolean;
  /** Present when the patch applied and the tests ran to the end. */
  tests_status?: SweTestsStatus;
}
