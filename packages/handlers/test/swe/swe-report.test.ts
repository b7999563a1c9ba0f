import { describe, expect, it } from "vitest";
import { formatPredictionsJsonl, parsePredictions } from "../../src/swe/swe-bench-format";
import { parseSweInstance, parseSweJsonl } from "../../src/swe/swe-instance.schema";
import { ZSwePayload } from "../../src/swe/swe-payload.schema";
import { buildSweReport, toSweBenchReportEntry } from "../../src/swe/swe-report-builder";
import { applyTestPatchScript, patchedFiles, shellQuote } from "../../src/swe/swe-shell-scripts";
import { detectTestFramework, testTargets } from "../../src/swe/test-framework";
import type { TestStatusMap } from "../../src/swe/test-status.types";

const RAW = {
  instance_id: "o__r-1",
  repo: "o/r",
  base_commit: "a".repeat(40),
  patch: "diff --git a/x.py b/x.py\n",
  test_patch:
    "diff --git a/tests/test_x.py b/tests/test_x.py\n--- a/tests/test_x.py\n+++ b/tests/test_x.py\n",
  problem_statement: "x is broken",
  hints_text: "",
  created_at: "2024-01-01T00:00:00Z",
  version: "1.0",
  FAIL_TO_PASS: '["tests/test_x.py::test_new"]',
  PASS_TO_PASS: '["tests/test_x.py::test_old", "tests/test_y.py::test_other"]',
  environment_setup_commit: "a".repeat(40),
};
const instance = parseSweInstance(RAW);

describe("SWE-bench instances", () => {
  it("accepts test lists as JSON-encoded strings and as arrays", () => {
    const fromArrays = parseSweInstance({
      ...RAW,
      FAIL_TO_PASS: ["tests/test_x.py::test_new"],
      PASS_TO_PASS: [],
    });
    expect(instance.FAIL_TO_PASS).toEqual(["tests/test_x.py::test_new"]);
    expect(instance.PASS_TO_PASS).toHaveLength(2);
    expect(fromArrays.FAIL_TO_PASS).toEqual(["tests/test_x.py::test_new"]);
    expect(fromArrays.PASS_TO_PASS).toEqual([]);
  });

  it("names the line and the field of a bad JSONL record", () => {
    const text = `${JSON.stringify(RAW)}\n\n${JSON.stringify({ ...RAW, base_commit: "abc" })}\n`;
    expect(() => parseSweJsonl(text, "d.jsonl")).toThrow(
      /d\.jsonl:3: base_commit: expected a full 40-character/,
    );
    expect(() => parseSweJsonl("{nope", "d.jsonl")).toThrow(/d\.jsonl:1: not valid JSON/);
    expect(() => parseSweInstance({ ...RAW, FAIL_TO_PASS: "[oops" })).toThrow(/FAIL_TO_PASS/);
  });

  it("wraps a bare instance into a job payload with its id as task id", () => {
    const payload = ZSwePayload.parse(RAW);
    expect(payload.taskId).toBe("o__r-1");
    expect(payload.instance.PASS_TO_PASS).toHaveLength(2);
    expect(ZSwePayload.parse({ instance: RAW, taskId: "custom" }).taskId).toBe("custom");
    expect(ZSwePayload.safeParse({ instance: RAW, surprise: 1 }).success).toBe(false);
  });
});

describe("buildSweReport", () => {
  const statuses: TestStatusMap = new Map([
    ["tests/test_x.py::test_new", "PASSED"],
    ["tests/test_x.py::test_old", "PASSED"],
    ["tests/test_y.py::test_other", "XFAIL"],
    ["tests/test_y.py::test_unlisted", "FAILED"],
  ]);

  it("resolves when every FAIL_TO_PASS and PASS_TO_PASS test passes", () => {
    const report = buildSweReport({ instance, modelPatch: "diff", statuses, patchApplyMethod: "git-apply" });
    expect(report.resolved).toBe(true);
    expect(report.testsStatus.FAIL_TO_PASS).toEqual({ success: ["tests/test_x.py::test_new"], failure: [] });
    expect(report.testsStatus.PASS_TO_PASS.failure).toEqual([]);
    expect(report.testStatuses["tests/test_y.py::test_unlisted"]).toBe("FAILED");
  });

  it("counts a missing test as a failure and a skipped PASS_TO_PASS test as maintained (as SWE-bench)", () => {
    const partial: TestStatusMap = new Map([
      ["tests/test_x.py::test_new", "PASSED"],
      ["tests/test_x.py::test_old", "SKIPPED"],
    ]);
    const report = buildSweReport({ instance, modelPatch: "diff", statuses: partial });
    expect(report.resolved).toBe(false);
    expect(report.testsStatus.PASS_TO_PASS).toEqual({
      success: ["tests/test_x.py::test_old"],
      failure: ["tests/test_y.py::test_other"],
    });
    const skippedNew = buildSweReport({
      instance,
      modelPatch: "diff",
      statuses: new Map([...statuses, ["tests/test_x.py::test_new", "SKIPPED"]]),
    });
    expect(skippedNew.testsStatus.FAIL_TO_PASS.failure).toEqual(["tests/test_x.py::test_new"]);
  });

  it("never resolves a run that timed out, even when every listed test passed before", () => {
    const report = buildSweReport({ instance, modelPatch: "diff", statuses, testTimeout: true });
    expect(report.resolved).toBe(false);
    expect(toSweBenchReportEntry(report)).toEqual({
      patch_is_None: false,
      patch_exists: true,
      patch_successfully_applied: false,
      resolved: false,
    });
  });

  it("never resolves an empty or unappliable patch", () => {
    expect(buildSweReport({ instance, modelPatch: "  \n", statuses }).resolved).toBe(false);
    expect(buildSweReport({ instance, modelPatch: "  \n", statuses }).emptyPatch).toBe(true);
    const failed = buildSweReport({ instance, modelPatch: "diff", failedApplyPatch: true });
    expect(failed.resolved).toBe(false);
    expect(failed.testsStatus.FAIL_TO_PASS).toEqual({ success: [], failure: [] });
  });

  it("fills FAIL_TO_FAIL / PASS_TO_FAIL only when the instance lists them", () => {
    const extended = parseSweInstance({ ...RAW, PASS_TO_FAIL: ["tests/test_y.py::test_unlisted"] });
    const report = buildSweReport({ instance: extended, modelPatch: "diff", statuses });
    expect(report.testsStatus.PASS_TO_FAIL).toEqual({
      success: [],
      failure: ["tests/test_y.py::test_unlisted"],
    });
    expect(report.testsStatus.FAIL_TO_FAIL).toEqual({ success: [], failure: [] });
  });
});

describe("SWE-bench formats", () => {
  const resolved = buildSweReport({
    instance,
    modelPatch: "diff --git a/x b/x",
    statuses: new Map([
      ["tests/test_x.py::test_new", "PASSED"],
      ["tests/test_x.py::test_old", "PASSED"],
      ["tests/test_y.py::test_other", "PASSED"],
    ]),
  });
  const none = buildSweReport({
    instance: parseSweInstance({ ...RAW, instance_id: "a__b-0" }),
    modelPatch: null,
  });

  it("shapes a report.json entry like SWE-bench's", () => {
    expect(toSweBenchReportEntry(resolved)).toEqual({
      patch_is_None: false,
      patch_exists: true,
      patch_successfully_applied: true,
      resolved: true,
      tests_status: {
        FAIL_TO_PASS: { success: ["tests/test_x.py::test_new"], failure: [] },
        PASS_TO_PASS: { success: ["tests/test_x.py::test_old", "tests/test_y.py::test_other"], failure: [] },
        FAIL_TO_FAIL: { success: [], failure: [] },
        PASS_TO_FAIL: { success: [], failure: [] },
      },
    });
    expect(toSweBenchReportEntry(none)).toEqual({
      patch_is_None: true,
      patch_exists: false,
      patch_successfully_applied: false,
      resolved: false,
    });
    const unapplied = buildSweReport({ instance, modelPatch: "diff", failedApplyPatch: true });
    expect(toSweBenchReportEntry(unapplied)).toMatchObject({
      patch_exists: true,
      patch_successfully_applied: false,
    });
  });

  it("writes predictions JSONL and reads it back (JSONL, JSON array), rejecting duplicates and mixed models", () => {
    const jsonl = formatPredictionsJsonl("qwen3-8b", [resolved, none]);
    expect(parsePredictions(jsonl)).toEqual([
      { instance_id: "o__r-1", model_name_or_path: "qwen3-8b", model_patch: "diff --git a/x b/x" },
      { instance_id: "a__b-0", model_name_or_path: "qwen3-8b", model_patch: null },
    ]);
    expect(parsePredictions(JSON.stringify(parsePredictions(jsonl)))).toHaveLength(2);
    const line = (id: string, model = "m") =>
      JSON.stringify({ instance_id: id, model_name_or_path: model, model_patch: "" });
    expect(() => parsePredictions(`${line("a")}\n${line("a")}\n`, "p.jsonl")).toThrow(
      /p\.jsonl:2: .*listed twice/,
    );
    expect(() => parsePredictions(`${line("a")}\n${line("b", "n")}\n`)).toThrow(/several models/);
    expect(() => parsePredictions(`${line("a")}\n{"instance_id": "b"}\n`, "p.jsonl")).toThrow(
      /p\.jsonl:2: model_name_or_path/,
    );
  });
});

describe("test selection and scripts", () => {
  it("detects the framework and picks files or modules to run", () => {
    expect(detectTestFramework(["a/t.py::test_x", "a/u.py::C::test_y"])).toBe("pytest");
    expect(detectTestFramework(["test_x (pkg.tests.C)", "test_y (pkg.tests.D)"])).toBe("unittest");
    expect(detectTestFramework(["test_x (pkg.tests.C)", "a/t.py::test_x"])).toBeNull();
    expect(testTargets("pytest", ["b/t.py::x", "a/t.py::y[1]", "b/t.py::z"])).toEqual(["a/t.py", "b/t.py"]);
    expect(testTargets("unittest", ["test_x (pkg.tests.C)", "test_y (pkg.other.D)"])).toEqual([
      "pkg.other",
      "pkg.tests",
    ]);
  });

  it("resets exactly the files the test patch touches before applying it", () => {
    expect(patchedFiles(RAW.test_patch)).toEqual(["tests/test_x.py"]);
    const script = applyTestPatchScript("o/r", RAW.base_commit, RAW.test_patch);
    expect(script).toContain(`-- 'tests/test_x.py'`);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});
