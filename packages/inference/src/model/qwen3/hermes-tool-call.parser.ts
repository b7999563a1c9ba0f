import type { ToolCall, ToolCallError } from "../model-family.types";

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";
const EXAMPLE =
  '<tool_call>\n{"name": "<tool-name>", "arguments": {<arguments as a JSON object>}}\n</tool_call>';

export interface HermesParseResult {
  calls: ToolCall[];
  errors: ToolCallError[];
  /** The text with every tool-call block (closed or not) removed. */
  textWithoutCalls: string;
}

/**
 * Parses Hermes-style `<tool_call>{"name": …, "arguments": {…}}</tool_call>` blocks. Every
 * problem becomes an error whose message tells the model what was wrong and how to fix it.
 */
export function parseHermesToolCalls(text: string, knownTools?: readonly string[]): HermesParseResult {
  const calls: ToolCall[] = [];
  const errors: ToolCallError[] = [];
  let rest = "";
  let cursor = 0;
  let index = 0;
  for (;;) {
    const open = text.indexOf(OPEN, cursor);
    const strayClose = text.indexOf(CLOSE, cursor);
    if (strayClose !== -1 && (open === -1 || strayClose < open)) {
      index += 1;
      errors.push({
        index,
        raw: text.slice(cursor, strayClose).trim(),
        message: `Tool call ${index}: found ${CLOSE} without a matching ${OPEN}. Write each call as ${EXAMPLE}`,
      });
      rest += text.slice(cursor, strayClose);
      cursor = strayClose + CLOSE.length;
      continue;
    }
    if (open === -1) break;
    rest += text.slice(cursor, open);
    index += 1;
    const close = text.indexOf(CLOSE, open + OPEN.length);
    const nextOpen = text.indexOf(OPEN, open + OPEN.length);
    if (close === -1 || (nextOpen !== -1 && nextOpen < close)) {
      const end = nextOpen === -1 ? text.length : nextOpen;
      errors.push({
        index,
        raw: text.slice(open + OPEN.length, end).trim(),
        message: `Tool call ${index}: ${OPEN} was never closed with ${CLOSE}. Write each call as ${EXAMPLE}`,
      });
      cursor = end;
      continue;
    }
    const raw = text.slice(open + OPEN.length, close).trim();
    const parsed = parseOneCall(raw, index, knownTools);
    if ("call" in parsed) calls.push(parsed.call);
    else errors.push(parsed.error);
    cursor = close + CLOSE.length;
  }
  rest += text.slice(cursor);
  return { calls, errors, textWithoutCalls: rest };
}

function parseOneCall(
  raw: string,
  index: number,
  knownTools: readonly string[] | undefined,
): { call: ToolCall } | { error: ToolCallError } {
  const fail = (problem: string) => ({ error: { index, raw, message: `Tool call ${index}: ${problem}` } });
  if (raw === "") return fail(`the block is empty. Write each call as ${EXAMPLE}`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return fail(`the content is not valid JSON (${reason}). Write each call as ${EXAMPLE}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return fail(`expected a JSON object with "name" and "arguments". Write each call as ${EXAMPLE}`);
  }
  const object = value as Record<string, unknown>;
  const name = object.name;
  if (typeof name !== "string" || name.trim() === "") {
    return fail(`the "name" field is missing or not a string. Write each call as ${EXAMPLE}`);
  }
  if (knownTools && !knownTools.includes(name)) {
    return fail(`there is no tool named "${name}". Available tools: ${knownTools.join(", ")}.`);
  }
  let args: unknown = object.arguments ?? object.parameters ?? {};
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch {
      return fail(
        `"arguments" of ${name} is a string that is not valid JSON; give "arguments" as a JSON object.`,
      );
    }
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return fail(`"arguments" of ${name} must be a JSON object, e.g. {"command": "ls"}.`);
  }
  return { call: { name, arguments: args as Record<string, unknown> } };
}
