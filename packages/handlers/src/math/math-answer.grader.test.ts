import { describe, expect, it } from "vitest";
import { evaluateLatexNumber } from "./latex-number.parser";
import { extractBoxedAnswer, gradeMathAnswer, isEquivalentMathAnswer } from "./math-answer.grader";
import { normalizeMathAnswer } from "./math-answer.normalizer";

describe("extractBoxedAnswer", () => {
  it("takes the last boxed answer with balanced braces", () => {
    expect(extractBoxedAnswer("so \\boxed{1} no wait \\boxed{\\frac{1}{2}}.")).toBe("\\frac{1}{2}");
    expect(extractBoxedAnswer("The answer is $\\boxed{ 42 }$")).toBe("42");
    expect(extractBoxedAnswer("\\fbox{7}")).toBe("7");
    expect(extractBoxedAnswer("\\boxed 5")).toBe("5");
  });
  it("returns null without a complete box", () => {
    expect(extractBoxedAnswer("the answer is 42")).toBeNull();
    expect(extractBoxedAnswer("\\boxed{\\frac{1}{2}")).toBeNull();
  });
});

describe("evaluateLatexNumber", () => {
  it.each([
    ["3", 3],
    ["-2.5", -2.5],
    ["\\frac{3}{4}", 0.75],
    ["\\frac12", 0.5],
    ["\\sqrt{16}", 4],
    ["\\sqrt[3]{27}", 3],
    ["2\\sqrt{3}", 2 * Math.sqrt(3)],
    ["3\\pi", 3 * Math.PI],
    ["\\frac{\\pi}{2}", Math.PI / 2],
    ["2^{10}", 1024],
    ["2^10", 1024],
    ["(1+2)*3", 9],
    ["2(3+4)", 14],
    ["1e3", 1000],
  ])("%s = %d", (expression, value) => {
    expect(evaluateLatexNumber(expression)).toBeCloseTo(value, 9);
  });
  it.each(["x+1", "\\infty", "", "1/", "\\frac{1}", "abc"])("%s is not a number", (expression) => {
    expect(evaluateLatexNumber(expression)).toBeNull();
  });
});

describe("normalizeMathAnswer", () => {
  it("strips notation that does not change the answer", () => {
    expect(normalizeMathAnswer("$x = 5$.")).toBe("5");
    expect(normalizeMathAnswer("\\dfrac{1}{2}")).toBe("\\frac{1}{2}");
    expect(normalizeMathAnswer("90^\\circ")).toBe("90");
    expect(normalizeMathAnswer("1,000,000")).toBe("1000000");
    expect(normalizeMathAnswer("\\left( 1, 2 \\right)")).toBe("(1,2)");
    expect(normalizeMathAnswer("\\text{Tuesday}")).toBe("Tuesday");
    expect(normalizeMathAnswer("25\\%")).toBe("25%");
    expect(normalizeMathAnswer("\\$18.90")).toBe("18.90");
  });
});

describe("isEquivalentMathAnswer", () => {
  it.each([
    ["42", "42"],
    ["042", "42"],
    ["42.0", "42"],
    ["0.5", "\\frac{1}{2}"],
    ["1/2", "\\frac{1}{2}"],
    ["\\dfrac{2}{4}", "\\frac12"],
    ["-\\frac{3}{4}", "-0.75"],
    ["\\frac{-3}{4}", "-\\frac{3}{4}"],
    ["\\sqrt{2}/2", "\\frac{\\sqrt{2}}{2}"],
    ["\\frac{1}{\\sqrt{2}}", "\\frac{\\sqrt{2}}{2}"],
    ["2\\sqrt{3}", "\\sqrt{12}"],
    ["\\pi/2", "\\frac{\\pi}{2}"],
    ["6\\pi", "6\\pi"],
    ["50\\%", "50%"],
    ["50", "50\\%"],
    ["0.5", "50\\%"],
    ["x = 7", "7"],
    ["$1,000$", "1000"],
    ["90^\\circ", "90"],
    ["(1, -2)", "(1,-2)"],
    ["(0.5, 3)", "(\\frac{1}{2}, 3)"],
    ["\\text{Tuesday}", "Tuesday"],
    ["1024", "2^{10}"],
  ])("%s ≡ %s", (predicted, gold) => {
    expect(isEquivalentMathAnswer(predicted, gold)).toBe(true);
  });

  it.each([
    ["41", "42"],
    ["0.33", "\\frac{1}{3}"],
    ["3.14", "\\pi"],
    ["\\sqrt{3}", "\\sqrt{2}"],
    ["-5", "5"],
    ["2", "\\frac{1}{2}"],
    ["(1,2)", "(2,1)"],
    ["(1,2)", "[1,2]"],
    ["(1,2,3)", "(1,2)"],
    ["", "0"],
    ["Monday", "Tuesday"],
    ["x+1", "x+2"],
    ["51%", "50%"],
  ])("%s ≢ %s", (predicted, gold) => {
    expect(isEquivalentMathAnswer(predicted, gold)).toBe(false);
  });

  it("treats a missing answer as wrong", () => {
    expect(isEquivalentMathAnswer(null, "1")).toBe(false);
  });
});

describe("gradeMathAnswer", () => {
  it("prefers a boxed answer, then the submitted answer", () => {
    expect(gradeMathAnswer({ finalText: "so \\boxed{12}", submitted: null, gold: "12" })).toEqual({
      extracted: "12",
      source: "boxed",
      isCorrect: true,
    });
    expect(gradeMathAnswer({ finalText: "done", submitted: "\\boxed{3/4}", gold: "0.75" }).isCorrect).toBe(
      true,
    );
    expect(gradeMathAnswer({ finalText: "done", submitted: "0.75", gold: "\\frac34" })).toMatchObject({
      source: "submission",
      isCorrect: true,
    });
    expect(gradeMathAnswer({ finalText: "I think it is 12", submitted: null, gold: "12" })).toEqual({
      extracted: null,
      source: "none",
      isCorrect: false,
    });
  });
});
