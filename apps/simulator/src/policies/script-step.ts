import { fillerWords } from "../engine/seeded-random";
import type { PolicyTurn } from "./policy.types";
import type { TScriptStep, TTaskScript } from "./policy-config.schema";

export const DEFAULT_SCRIPT: TTaskScript = {
  steps: [{ thinkingWords: [20, 60], toolCalls: [{ name: "bash", arguments: { command: "ls" } }] }],
  repeatLast: true,
};

const FINAL_STEP: TScriptStep = { content: "I have finished the task." };

/** The step answering turn `turnIndex` of a script. */
export function stepFor(script: TTaskScript, turnIndex: number): TScriptStep {
  if (turnIndex < script.steps.length) return script.steps[turnIndex] as TScriptStep;
  return script.repeatLast ? (script.steps.at(-1) as TScriptStep) : FINAL_STEP;
}

/** Turns a script step into a response, drawing filler thinking from `random`. */
export function renderStep(step: TScriptStep, random: () => number): PolicyTurn {
  if (step.raw !== undefined) return { type: "raw", text: step.raw };
  let words = 0;
  if (typeof step.thinkingWords === "number") words = step.thinkingWords;
  else if (step.thinkingWords) {
    const [min, max] = step.thinkingWords;
    words = min + Math.floor(random() * (max - min + 1));
  }
  const parts = [step.thinking ?? "", words > 0 ? fillerWords(random, words) : ""].filter(
    (part) => part !== "",
  );
  return {
    type: "message",
    thinking: parts.length > 0 ? parts.join(" ") : null,
    content: step.content ?? "",
    toolCalls: step.toolCalls ?? [],
  };
}
