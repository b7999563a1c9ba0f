import { evaluateLatexNumber } from "./latex-number.parser";
import { normalizeMathAnswer } from "./math-answer.normalizer";

/** Relative tolerance of numeric equality (absolute near zero). */
const TOLERANCE = 1e-6;

/** The content of the last `\boxed{…}` (or `\fbox{…}`) in `text`, braces balanced; null when none. */
export function extractBoxedAnswer(text: string): string | null {
  const start = Math.max(text.lastIndexOf("\\boxed"), text.lastIndexOf("\\fbox"));
  if (start === -1) return null;
  let i = text.indexOf("{", start);
  if (i === -1) {
    const bare = /^\\boxed\s+(\S+)/.exec(text.slice(start));
    return bare?.[1] ?? null;
  }
  const open = i;
  let depth = 0;
  for (; i < text.length; i += 1) {
    if (text[i] === "{") depth += 1;
    else if (text[i] === "}") {
      depth -= 1;
      if (depth === 0) return text.slice(open + 1, i).trim();
    }
  }
  return null;
}

/** Numeric readings of a normalized answer; a percentage reads both as `p` and as `p / 100`. */
function numericValues(normalized: string): number[] {
  if (normalized.endsWith("%")) {
    const value = evaluateLatexNumber(normalized.slice(0, -1));
    return value === null ? [] : [value, value / 100];
  }
  const value = evaluateLatexNumber(normalized);
  return value === null ? [] : [value];
}

function isClose(a: number, b: number): boolean {
  return Math.abs(a - b) <= TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Splits a top-level tuple/interval `(a,b)` into its bracket pair and elements; null otherwise. */
function splitTuple(s: string): { open: string; close: string; items: string[] } | null {
  const open = s[0];
  const close = s.at(-1);
  if (!open || !close || !"([".includes(open) || !")]".includes(close)) return null;
  const items: string[] = [];
  let depth = 0;
  let current = "";
  for (const c of s.slice(1, -1)) {
    if ("({[".includes(c)) depth += 1;
    if (")}]".includes(c)) depth -= 1;
    if (c === "," && depth === 0) {
      items.push(current);
      current = "";
    } else current += c;
  }
  items.push(current);
  return items.length > 1 ? { open, close, items } : null;
}

function isEquivalentNormalized(predicted: string, gold: string): boolean {
  if (predicted === gold) return true;
  const predictedTuple = splitTuple(predicted);
  const goldTuple = splitTuple(gold);
  if (predictedTuple && goldTuple) {
    return (
      predictedTuple.open === goldTuple.open &&
      predictedTuple.close === goldTuple.close &&
      predictedTuple.items.length === goldTuple.items.length &&
      predictedTuple.items.every((item, i) => isEquivalentNormalized(item, goldTuple.items[i] as string))
    );
  }
  const goldValues = numericValues(gold);
  if (goldValues.length === 0) return false;
  return numericValues(predicted).some((p) => goldValues.some((g) => isClose(p, g)));
}

/**
 * True when `predicted` is the same answer as `gold`: equal after normalization, or numerically
 * equal (integers, decimals, fractions, `\frac`, `\sqrt`, `\pi`, percentages), element-wise for
 * tuples and intervals.
 */
export function isEquivalentMathAnswer(predicted: string | null, gold: string): boolean {
  if (predicted === null || predicted.trim() === "") return false;
  return isEquivalentNormalized(normalizeMathAnswer(predicted), normalizeMathAnswer(gold));
}

export interface MathGrade {
  /** The answer taken from the trajectory (boxed, else the submitted answer); null when none. */
  extracted: string | null;
  source: "boxed" | "submission" | "none";
  isCorrect: boolean;
}

/** Grades a trajectory's final text and optional submitted answer against the gold answer. */
export function gradeMathAnswer(input: {
  finalText: string;
  submitted: string | null;
  gold: string;
}): MathGrade {
  const boxed = extractBoxedAnswer(input.submitted ?? "") ?? extractBoxedAnswer(input.finalText);
  if (boxed !== null)
    return { extracted: boxed, source: "boxed", isCorrect: isEquivalentMathAnswer(boxed, input.gold) };
  if (input.submitted !== null && input.submitted.trim() !== "") {
    const answer = input.submitted.trim();
    return { extracted: answer, source: "submission", isCorrect: isEquivalentMathAnswer(answer, input.gold) };
  }
  return { extracted: null, source: "none", isCorrect: false };
}
