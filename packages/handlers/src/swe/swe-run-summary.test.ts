import { describe, expect, it } from "vitest";
import { parseSweInstance } from "./swe-instance.schema";
import { buildSweReport } from "./swe-report-builder";
import { buildSweRunSummary, type SweInstanceOutcome, sweModelDirName, sweRunFiles } from "./swe-run-summary";

const instance = (id: string) =>
  parseSweInstance({
    instance_id: id,
    repo: "o/r",
    base_commit: "a".repeat(40),
    problem_statement: "x",
    FAIL_TO_PASS: ["t.py::a"],
    PASS_TO_PASS: [],
  });
const graded = (id: string, passed: boolean) => ({
  report: buildSweReport({
    instance: instance(id),
    modelPatch: "diff",
    statuses: new Map([["t.py::a", passed ? "PASSED" : "FAILED"]]),
  }),
});

describe("SWE-bench run summary", () => {
  const summary = buildSweRunSummary({
    datasetIds: ["e", "d", "c", "b", "a", "f", "g"],
    predictions: new Map<string, string | null | undefined>([
      ["a", "diff"],
      ["b", "diff"],
      ["c", ""],
      ["d", null],
      ["e", "diff"],
      ["f", undefined],
    ]),
    outcomes: new Map<string, SweInstanceOutcome>([
      ["a", graded("a", true)],
      ["b", graded("b", false)],
      ["e", { error: "eval in eval: none of the listed tests reported" }],
      ["f", { error: "sandbox in run: crashed" }],
    ]),
  });

  it("counts like SWE-bench: empty patches apart, ungraded patches as errors, unpredicted as incomplete", () => {
    expect(summary).toEqual({
      total_instances: 7,
      submitted_instances: 6,
      completed_instances: 2,
      resolved_instances: 1,
      unresolved_instances: 1,
      empty_patch_instances: 2,
      error_instances: 2,
      completed_ids: ["a", "b"],
      incomplete_ids: ["g"],
      empty_patch_ids: ["c", "d"],
      submitted_ids: ["a", "b", "c", "d", "e", "f"],
      resolved_ids: ["a"],
      unresolved_ids: ["b"],
      error_ids: ["e", "f"],
      schema_version: 2,
    });
  });

  it("lays files out as SWE-bench does, with only `/` in model names replaced", () => {
    expect(sweModelDirName("Qwen/Qwen3-8B")).toBe("Qwen__Qwen3-8B");
    expect(sweModelDirName("my model:v2")).toBe("my model:v2");
    expect(() => sweModelDirName("..")).toThrow(/cannot name a directory/);
    const files = sweRunFiles({
      runId: "r1",
      model: "Qwen/Qwen3-8B",
      summary,
      reports: [graded("a", true).report],
    });
    expect(files.map((file) => file.path)).toEqual([
      "logs/run_evaluation/r1/Qwen__Qwen3-8B/a/report.json",
      "logs/run_evaluation/r1/Qwen__Qwen3-8B/a/patch.diff",
      "logs/run_evaluation/r1/Qwen__Qwen3-8B/a/test_output.txt",
      "Qwen__Qwen3-8B.r1.json",
    ]);
    expect(JSON.parse(files[0]?.content ?? "")).toMatchObject({ a: { resolved: true, patch_exists: true } });
    expect(JSON.parse(files[3]?.content ?? "")).toEqual(summary);
    expect(() => sweRunFiles({ runId: "../x", model: "m", summary, reports: [] })).toThrow(/run id/);
  });
});
