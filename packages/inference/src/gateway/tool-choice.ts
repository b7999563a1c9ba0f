import { requestFailure, type TChatCompletionRequest, type TToolChoiceViolation } from "@raas/shared";

/**
 * What `tool_choice` asks of the answer: `any` for `"required"`, a tool's name for a named choice,
 * null for `"auto"`, `"none"` or no choice (nothing to enforce).
 */
export type RequiredToolCall = { kind: "any" } | { kind: "named"; name: string } | null;

/**
 * Checks `tool_choice` against `tools` when the request arrives, as OpenAI does: `"required"` or a
 * named tool without tools, or a name that is not among them, is a 400 (the caller's mistake).
 * Returns what the answer must contain.
 */
export function readToolChoice(
  request: Pick<TChatCompletionRequest, "tool_choice" | "tools">,
): RequiredToolCall {
  const choice = request.tool_choice;
  if (choice === undefined || choice === "auto" || choice === "none") return null;
  const names = (request.tools ?? []).map((tool) => tool.function.name);
  if (choice === "required") {
    if (names.length === 0) {
      throw requestFailure("VALIDATION_FAILED", 'tool_choice "required" needs at least one tool in `tools`');
    }
    return { kind: "any" };
  }
  const { name } = choice.function;
  if (!names.includes(name)) {
    throw requestFailure(
      "VALIDATION_FAILED",
      `tool_choice names the function ${JSON.stringify(name)}, which is not among the request's tools (${names.length === 0 ? "none given" : names.join(", ")})`,
    );
  }
  return { kind: "named", name };
}

/**
 * Whether the answer honours the tool choice. The gateway samples without constrained decoding
 * (the answer's tokens are what the model chose — the training data), so it cannot force a tool
 * call; an answer that makes none (`"required"`), or does not call the named tool, is a violation:
 * returned to the harness as sampled (its `finish_reason` says what happened) and recorded with
 * the call, where the trace certificate lists it. Null when the answer honours it.
 */
export function findToolChoiceViolation(
  required: RequiredToolCall,
  calledTools: readonly string[],
): TToolChoiceViolation | null {
  if (required === null) return null;
  if (required.kind === "any") {
    if (calledTools.length > 0) return null;
    return {
      required: "any",
      calledTools: [],
      message: 'tool_choice was "required" but the answer calls no tool',
    };
  }
  if (calledTools.length > 0 && calledTools.every((name) => name === required.name)) return null;
  return {
    required: required.name,
    calledTools: [...calledTools],
    message:
      calledTools.length === 0
        ? `tool_choice named ${required.name} but the answer calls no tool`
        : `tool_choice named ${required.name} but the answer calls ${calledTools.join(", ")}`,
  };
}
