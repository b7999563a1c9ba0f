import type { ParsedResponse, ToolCall, ToolCallError } from "../../model/model-family.types";

/**
 * What went wrong with one attempted tool call. Every kind is the policy's mistake (a trainable
 * failure or a tool error message for the model), never an infrastructure failure.
 */
export type ToolCallErrorKind =
  /** The call's payload is not valid JSON (also a JSON call cut off at max length). */
  | "invalid-json"
  /** The payload parsed but is not a JSON object with a name. */
  | "not-an-object"
  | "missing-name"
  /** `knownTools` was given and the name is not among them. */
  | "unknown-tool"
  /** Arguments are not a JSON object (an array, a number, a string that is not JSON, …). */
  | "invalid-arguments"
  /** A call that was opened and never closed: cut at max length or the closing marker is missing. */
  | "unterminated"
  /** A closing or separator marker with no opening one. */
  | "stray-marker"
  /** A message header the family's format cannot read (missing or unknown channel, …). */
  | "malformed-header"
  /** A built-in tool call (`tool.call(key=value)`) whose arguments are not Python literals. */
  | "invalid-builtin-call";

/** A `ToolCallError` (same fields, same "Tool call N: …" message) with a machine-readable kind. */
export interface TypedToolCallError extends ToolCallError {
  kind: ToolCallErrorKind;
}

/** The Qwen3 parser's `ParsedResponse` contract, with typed errors. */
export interface FamilyParsedResponse extends ParsedResponse {
  toolCallErrors: TypedToolCallError[];
}

export interface FamilyParseOptions {
  /** When given, a call to any other name is an `unknown-tool` error. */
  knownTools?: readonly string[];
}

export type CallOutcome = { call: ToolCall } | { error: TypedToolCallError };

/** Builds an error whose message follows the Hermes parser's "Tool call N: …" shape. */
export function toolCallError(
  kind: ToolCallErrorKind,
  index: number,
  raw: string,
  problem: string,
): { error: TypedToolCallError } {
  return { error: { kind, index, raw, message: `Tool call ${index}: ${problem}` } };
}

/** Parses JSON without throwing; `reason` is the parser's message. */
export function tryParseJson(text: string): { value: unknown } | { reason: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks a name and raw arguments (an object, or a string holding JSON, as the Hermes parser
 * accepts) against `knownTools`; `example` is appended to format errors to show the right shape.
 */
export function checkToolCall(
  name: unknown,
  args: unknown,
  context: { index: number; raw: string; example: string; knownTools?: readonly string[] },
): CallOutcome {
  const { index, raw, example, knownTools } = context;
  if (typeof name !== "string" || name.trim() === "") {
    return toolCallError(
      "missing-name",
      index,
      raw,
      `the tool name is missing or not a string. Write each call as ${example}`,
    );
  }
  if (knownTools && !knownTools.includes(name)) {
    return toolCallError(
      "unknown-tool",
      index,
      raw,
      `there is no tool named "${name}". Available tools: ${knownTools.join(", ")}.`,
    );
  }
  let value: unknown = args ?? {};
  if (typeof value === "string") {
    const parsed = tryParseJson(value);
    if (!("value" in parsed)) {
      return toolCallError(
        "invalid-arguments",
        index,
        raw,
        `the arguments of ${name} are a string that is not valid JSON; give them as a JSON object.`,
      );
    }
    value = parsed.value;
  }
  if (!isPlainObject(value)) {
    return toolCallError(
      "invalid-arguments",
      index,
      raw,
      `the arguments of ${name} must be a JSON object, e.g. {"command": "ls"}.`,
    );
  }
  return { call: { name, arguments: value } };
}

/** Collects outcomes into a response; keeps calls and errors in their order of appearance. */
export function collectOutcomes(
  outcomes: readonly CallOutcome[],
  parts: { thinking: string | null; content: string },
): FamilyParsedResponse {
  const toolCalls: ToolCall[] = [];
  const toolCallErrors: TypedToolCallError[] = [];
  for (const outcome of outcomes) {
    if ("call" in outcome) toolCalls.push(outcome.call);
    else toolCallErrors.push(outcome.error);
  }
  return { thinking: parts.thinking, content: parts.content, toolCalls, toolCallErrors };
}

/** Removes trailing whitespace and any run of the given end markers (linear, no regex backtracking). */
export function stripTrailingMarkers(text: string, markers: readonly string[]): string {
  let end = text.length;
  for (;;) {
    while (end > 0 && /\s/.test(text[end - 1]!)) end -= 1;
    const marker = markers.find(
      (candidate) => end >= candidate.length && text.startsWith(candidate, end - candidate.length),
    );
    if (!marker) return text.slice(0, end);
    end -= marker.length;
  }
}
