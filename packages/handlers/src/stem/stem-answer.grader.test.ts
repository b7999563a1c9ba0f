import { describe, expect, it } from "vitest";
import { gradeStemAnswer } from "./stem-answer.grader";

const grade = (finalText: string, submitted: string | null = null, gold = "B") =>
  gradeStemAnswer({ finalText, submitted, gold, choiceCount: 4 });

describe("gradeStemAnswer", () => {
  it.each([
    ["so \\boxed{B}", null],
    ["\\boxed{(B)}", null],
    ["\\boxed{\\text{B}}", null],
    ["\\boxed{B. 9.8 m/s^2}", null],
    ["done", "B"],
    ["done", "(B)"],
    ["done", "Option B"],
    ["I think A is tempting, but the answer is B.", null],
    ["Answer: (B)", null],
  ])("credits %s / submitted %s", (text, submitted) => {
    expect(grade(text, submitted)).toMatchObject({ chosen: "B", isCorrect: true });
  });

  it.each([
    ["\\boxed{A}", null],
    ["done", "C"],
    ["the answer is D", null],
    ["\\boxed{E}", null],
    ["B or C, hard to say", null],
    ["no idea", null],
    ["\\boxed{Both}", null],
  ])("does not credit %s / submitted %s", (text, submitted) => {
    expect(grade(text, submitted).isCorrect).toBe(false);
  });

  it("rejects letters beyond the choices and reports what was chosen", () => {
    expect(grade("\\boxed{E}")).toEqual({ chosen: null, source: "none", isCorrect: false });
    expect(grade("\\boxed{A}")).toEqual({ chosen: "A", source: "boxed", isCorrect: false });
    expect(grade("hmm")).toEqual({ chosen: null, source: "none", isCorrect: false });
  });
});
