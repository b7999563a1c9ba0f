import { extractBoxedAnswer } from "../math/math-answer.grader";

/** Letters of up to ten choices. */
export const CHOICE_LETTERS = "ABCDEFGHIJ";

/** A single choice letter from an answer like `B`, `(B)`, `B)`, `\text{B}`, `Option B`; null otherwise. */
function letterOf(answer: string, choiceCount: number): string | null {
  const valid = CHOICE_LETTERS.slice(0, choiceCount);
  const cleaned = answer
    .replace(/\\text\{([^{}]*)\}/g, "$1")
    .replace(/^\s*(option|choice|answer)\s*:?\s*/i, "")
    .trim();
  const match = /^\(?([A-J])\)?[.:)]?(\s|$)/.exec(cleaned);
  const letter = match?.[1];
  return letter && valid.includes(letter) ? letter : null;
}

export interface StemGrade {
  chosen: string | null;
  source: "boxed" | "submission" | "text" | "none";
  isCorrect: boolean;
}

/** Finds the chosen letter (boxed, submitted, or a final "Answer: X" line) and compares it. */
export function gradeStemAnswer(input: {
  finalText: string;
  submitted: string | null;
  gold: string;
  choiceCount: number;
}): StemGrade {
  const grade = (chosen: string | null, source: StemGrade["source"]): StemGrade => ({
    chosen,
    source: chosen === null ? "none" : source,
    isCorrect: chosen !== null && chosen === input.gold.trim().toUpperCase(),
  });
  const boxed = extractBoxedAnswer(input.submitted ?? "") ?? extractBoxedAnswer(input.finalText);
  if (boxed !== null) return grade(letterOf(boxed, input.choiceCount), "boxed");
  if (input.submitted !== null && input.submitted.trim() !== "") {
    return grade(letterOf(input.submitted, input.choiceCount), "submission");
  }
  const stated = [...input.finalText.matchAll(/answer\s*(?:is|:)\s*\(?([A-J])\)?(?![A-Za-z])/gi)].at(-1)?.[1];
  return grade(stated ? letterOf(stated.toUpperCase(), input.choiceCount) : null, "text");
}
