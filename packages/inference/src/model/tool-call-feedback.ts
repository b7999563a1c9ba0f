import type { ToolCallError } from "./model-family.types";

/** Model-facing feedback for malformed tool calls, one line per call, sent back as the next message. */
export function formatToolCallErrors(errors: readonly ToolCallError[]): string {
  const lines = errors.map((error) => `- ${error.message}`);
  return `Your tool call could not be executed:\n${lines.join("\n")}`;
}
