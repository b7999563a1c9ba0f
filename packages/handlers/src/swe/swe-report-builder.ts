import { type CanaryCheck, isTampered } from "../base/canary/index";
import type { TSweInstance } from "./swe-instance.schema";
import type { SweBenchReportEntry, SweEvalReport, SweTestSplit, SweTestsStatus } from "./swe-report.types";
import type { TestFramework } from "./test-framework";
import { isMaintainedStatus, isPassingStatus, type TestStatusMap } from "./test-status.types";

const LOG_TAIL_BYTES = 8_192;

function split(
  tests: readonly string[],
  statuses: TestStatusMap,
  succeeds: (status: ReturnType<TestStatusMap["get"]>) => boolean = isPassingStatus,
): SweTestSplit {
  const result: SweTestSplit = { success: [], failure: [] };
  for (const test of tests) (succeeds(statuses.get(test)) ? result.success : result.failure).push(test);
  return result;
}

/** A list field the instance may carry beyond SWE-bench's two (SWE-bench leaves them empty). */
function extraList(instance: TSweInstance, key: "FAIL_TO_FAIL" | "PASS_TO_FAIL"): string[] {
  const value = instance[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

const EMPTY_STATUS: SweTestsStatus = {
  FAIL_TO_PASS: { success: [], failure: [] },
  PASS_TO_PASS: { success: [], failure: [] },
  FAIL_TO_FAIL: { success: [], failure: [] },
  PASS_TO_FAIL: { success: [], failure: [] },
};

export interface BuildSweReportInput {
  instance: TSweInstance;
  modelPatch: string | null;
  /** Outcomes parsed from the test log; omitted when the tests did not run. */
  statuses?: TestStatusMap;
  failedApplyPatch?: boolean;
  testTimeout?: boolean;
  patchApplyMethod?: SweEvalReport["patchApplyMethod"];
  framework?: TestFramework | null;
  testCommand?: string | null;
  testExitCode?: number | null;
  pythonVersion?: string | null;
  pytestVersion?: string | null;
  reverted?: string[];
  canaries?: CanaryCheck | null;
  log?: string;
}

/** True when the patch has no change at all (whitespace only counts as none). */
export function isEmptyPatch(patch: string | null | undefined): boolean {
  return patch === null || patch === undefined || patch.trim() === "";
}

/**
 * Grades one evaluation like SWE-bench: a FAIL_TO_PASS test succeeds only if the log shows it
 * passing (PASSED or XFAIL); a PASS_TO_PASS test also when skipped; a test missing from the log
 * fails. Resolved means no failure in either list, no timeout and no canary that lied. An empty
 * or unappliable patch is never resolved.
 */
export function buildSweReport(input: BuildSweReportInput): SweEvalReport {
  const { instance } = input;
  const emptyPatch = isEmptyPatch(input.modelPatch);
  const failedApplyPatch = input.failedApplyPatch ?? false;
  const ran = input.statuses !== undefined && !emptyPatch && !failedApplyPatch;
  const statuses = input.statuses ?? new Map();
  const testsStatus: SweTestsStatus = input.statuses
    ? {
        FAIL_TO_PASS: split(instance.FAIL_TO_PASS, statuses),
        // SWE-bench: a PASS_TO_PASS test that was skipped is still maintained.
        PASS_TO_PASS: split(instance.PASS_TO_PASS, statuses, isMaintainedStatus),
        FAIL_TO_FAIL: split(extraList(instance, "FAIL_TO_FAIL"), statuses),
        PASS_TO_FAIL: split(extraList(instance, "PASS_TO_FAIL"), statuses),
      }
    : structuredClone(EMPTY_STATUS);
  const tampered = isTampered(input.canaries);
  const resolved =
    ran &&
    !tampered &&
    !input.testTimeout &&
    testsStatus.FAIL_TO_PASS.failure.length === 0 &&
    testsStatus.PASS_TO_PASS.failure.length === 0;
  const log = input.log ?? "";
  return {
    instanceId: instance.instance_id,
    resolved,
    emptyPatch,
    failedApplyPatch,
    testTimeout: input.testTimeout ?? false,
    patchApplyMethod: input.patchApplyMethod ?? null,
    testsStatus,
    testStatuses: Object.fromEntries([...statuses].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    framework: input.framework ?? null,
    testCommand: input.testCommand ?? null,
    testExitCode: input.testExitCode ?? null,
    pythonVersion: input.pythonVersion ?? null,
    pytestVersion: input.pytestVersion ?? null,
    modelPatch: input.modelPatch,
    reverted: input.reverted ?? [],
    canaries: input.canaries ?? null,
    tampered,
    logTail: log.length > LOG_TAIL_BYTES ? log.slice(-LOG_TAIL_BYTES) : log,
  };
}

/**
 * The report entry in SWE-bench's shape (`{<instance_id>: entry}` is a whole `report.json`).
 * As in SWE-bench, `patch_successfully_applied` is false when the tests could not run to the end
 * (patch did not apply, test timeout), and `tests_status` is present only when they did.
 */
export function toSweBenchReportEntry(report: SweEvalReport): SweBenchReportEntry {
  const applied = !report.emptyPatch && !report.failedApplyPatch && !report.testTimeout;
  return {
    patch_is_None: report.modelPatch === null,
    patch_exists: report.modelPatch !== null,
    patch_successfully_applied: applied,
    resolved: report.resolved,
    ...(applied && { tests_status: report.testsStatus }),
  };
}
