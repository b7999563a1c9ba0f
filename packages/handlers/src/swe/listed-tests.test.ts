import { describe, expect, it } from "vitest";
import { judgeListedTests } from "./listed-tests";
import type { TestStatusMap } from "./test-status.types";

const tests = ["t.py::a", "t.py::b"];
const none: TestStatusMap = new Map([["t.py::unlisted", "PASSED"]]);

describe("judgeListedTests", () => {
  it("grades a run in which any listed test reported, even as an error", () => {
    const statuses: TestStatusMap = new Map([["t.py::a", "ERROR"]]);
    expect(judgeListedTests({ statuses, tests, isReferenceRun: false, hasReference: true })).toBe("graded");
    expect(judgeListedTests({ statuses, tests, isReferenceRun: true, hasReference: true })).toBe("graded");
  });

  it("checks the gold patch when no listed test reported with another patch", () => {
    expect(judgeListedTests({ statuses: none, tests, isReferenceRun: false, hasReference: true })).toBe(
      "check-reference",
    );
  });

  it("is an evaluation error when the gold patch itself reports none, or there is no gold patch", () => {
    expect(judgeListedTests({ statuses: none, tests, isReferenceRun: true, hasReference: true })).toBe(
      "eval-error",
    );
    expect(judgeListedTests({ statuses: new Map(), tests, isReferenceRun: false, hasReference: false })).toBe(
      "eval-error",
    );
  });
});
