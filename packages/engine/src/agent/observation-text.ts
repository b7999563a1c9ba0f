import type { ChatToolCall } from "../ports/chat-format.port";
import type { ToolResult } from "../ports/sandbox-runtime.port";

/** Keeps the head and tail of `text` within `maxChars`, with a note of what was cut. */
export function truncateMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const note = `\n[... ${text.length - maxChars} characters omitted ...]\n`;
  const keep = Math.max(0, maxChars - note.length);
  const head = Math.ceil(keep / 2);
  return text.slice(0, head) + note + text.slice(text.length - (keep - head));
}

/** The default observation: the tool's output, then its exit code or timeout when notable. */
export function defaultObservation(_call: ChatToolCall, result: ToolResult): string {
  const notes: string[] = [];
  if (result.timedOut) notes.push("[the call timed out and was interrupted]");
  if (result.exitCode !== null && result.exitCode !== 0) notes.push(`[exit code: ${result.exitCode}]`);
  const output = result.output === "" && notes.length === 0 ? "(no output)" : result.output;
  return [output, ...notes].filter((part) => part !== "").join("\n");
}
