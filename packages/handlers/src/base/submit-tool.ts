import type { ToolSpec } from "@raas/engine";

/** The finish tool: ends the trajectory; `answer` carries a final answer where the task has one. */
export const SUBMIT_TOOL_SPEC: ToolSpec = {
  name: "submit",
  description: "Submit your final answer and end the task. Call it exactly once, when you are done.",
  parameters: {
    type: "object",
    properties: {
      answer: { type: "string", description: "Your final answer (omit when the task has none)." },
    },
    additionalProperties: false,
  },
};

/** A submit tool with a task-specific description and answer hint. */
export function submitToolSpec(description: string, answerDescription?: string): ToolSpec {
  if (answerDescription === undefined) {
    return {
      name: "submit",
      description,
      parameters: { type: "object", properties: {}, additionalProperties: false },
    };
  }
  return {
    name: "submit",
    description,
    parameters: {
      type: "object",
      properties: { answer: { type: "string", description: answerDescription } },
      required: ["answer"],
      additionalProperties: false,
    },
  };
}
