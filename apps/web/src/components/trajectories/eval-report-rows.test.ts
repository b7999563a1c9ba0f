import { describe, expect, it } from "vitest";
import { evalReportRows } from "./eval-report-rows";

describe("evalReportRows", () => {
  it("lists FAIL_TO_PASS then PASS_TO_PASS tests with their outcome", () => {
    const result = {
      resolved: false,
      testsStatus: {
        FAIL_TO_PASS: { success: ["t::a"], failure: ["t::b"] },
        PASS_TO_PASS: { success: ["t::c"], failure: [] },
        FAIL_TO_FAIL: { success: [], failure: ["ignored"] },
      },
    };
    expect(evalReportRows(result)).toEqual([
      { category: "FAIL_TO_PASS", test: "t::a", passed: true },
      { category: "FAIL_TO_PASS", test: "t::b", passed: false },
      { category: "PASS_TO_PASS", test: "t::c", passed: true },
    ]);
  });

  it("is null for results without a tests report", () => {
    expect(evalReportRows({ correct: true, answer: "4" })).toBeNull();
    expect(evalReportRows(null)).toBeNull();
    expect(evalReportRows("text")).toBeNull();
  });
});
