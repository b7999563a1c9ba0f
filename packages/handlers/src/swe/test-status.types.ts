/** Outcome of one test as the log parsers report it (pytest's vocabulary; unittest is mapped onto it). */
export type TestStatus = "PASSED" | "FAILED" | "ERROR" | "SKIPPED" | "XFAIL" | "XPASS";

/** Test name → status. Names are pytest node ids or `test_method (module.Class)` for unittest. */
export type TestStatusMap = Map<string, TestStatus>;

/** SWE-bench counts a test as passing only when it passed or failed as expected. */
export function isPassingStatus(status: TestStatus | undefined): boolean {
  return status === "PASSED" || status === "XFAIL";
}

/** SWE-bench keeps a PASS_TO_PASS test maintained when it passed or was skipped. */
export function isMaintainedStatus(status: TestStatus | undefined): boolean {
  return isPassingStatus(status) || status === "SKIPPED";
}

const SEVERITY: Record<TestStatus, number> = {
  PASSED: 0,
  XFAIL: 0,
  SKIPPED: 1,
  XPASS: 2,
  FAILED: 3,
  ERROR: 3,
};

/**
 * Records a status, keeping the worse one when a test is reported twice (pytest reports a test
 * that passed its call but broke in teardown as PASSED and then ERROR).
 */
export function recordStatus(map: TestStatusMap, name: string, status: TestStatus): void {
  const previous = map.get(name);
  if (previous === undefined || SEVERITY[status] >= SEVERITY[previous]) map.set(name, status);
}
