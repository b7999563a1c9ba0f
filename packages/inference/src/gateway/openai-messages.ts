import {
  requestFailure,
  type TOpenAiAssistantMessage,
  type TOpenAiMessage,
  type TOpenAiTool,
} from "@raas/shared";
import type { ChatMessage, ToolCall, ToolSpec } from "../model/model-family.types";

/** The text of a message's content (string, or the concatenated text parts). */
function contentText(content: TOpenAiMessage["content"]): string {
  if (content == null) return "";
  if (typeof content === "string") return content;
  return content.map((part) => part.text).join("");
}

/**
 * An OpenAI message as the chat template sees it (past thinking dropped, as Qwen3's template does).
 * A tool result carries the name of the call it answers, looked up by `tool_call_id` in `toolNames`
 * (families such as harmony address results by tool name).
 */
export function toChatMessage(
  message: TOpenAiMessage,
  index: number,
  toolNames: ReadonlyMap<string, string> = new Map(),
): ChatMessage {
  switch (message.role) {
    case "system":
    case "developer":
      return { role: "system", content: contentText(message.content) };
    case "user":
      return { role: "user", content: contentText(message.content) };
    case "tool": {
      const toolName = message.tool_call_id === undefined ? undefined : toolNames.get(message.tool_call_id);
      return { role: "tool", content: contentText(message.content), ...(toolName && { toolName }) };
    }
    case "assistant": {
      const toolCalls = (message.tool_calls ?? []).map((call) => parseToolCall(call, index));
      return { role: "assistant", content: contentText(message.content), toolCalls };
    }
  }
}

/** The tool name of every call id the assistant messages made. */
export function toolNamesOfCalls(messages: readonly TOpenAiMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  }
  return names;
}

function parseToolCall(
  call: { function: { name: string; arguments: string } },
  messageIndex: number,
): ToolCall {
  let args: unknown;
  try {
    args = call.function.arguments.trim() === "" ? {} : JSON.parse(call.function.arguments);
  } catch {
    throw requestFailure(
      "VALIDATION_FAILED",
      `messages[${messageIndex}]: the arguments of tool call ${call.function.name} are not valid JSON`,
    );
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw requestFailure(
      "VALIDATION_FAILED",
      `messages[${messageIndex}]: the arguments of tool call ${call.function.name} must be a JSON object`,
    );
  }
  return { name: call.function.name, arguments: args as Record<string, unknown> };
}

/**
 * A key that is equal for two messages the harness means alike: role, text, tool calls (name and
 * parsed arguments, whatever the order of their keys) and the tool-call id a tool result answers.
 * Thinking (`reasoning_content`) and unknown fields are ignored: harnesses drop or add them. A
 * harness that parses a call's arguments and sends them back re-serialised (Claude Code puts them
 * in its schema's key order) still sends the answer back as sampled.
 */
export function messageKey(given: TOpenAiMessage | TOpenAiAssistantMessage, index: number): string {
  const message = given as TOpenAiMessage;
  const chat = toChatMessage(message, index);
  const role = message.role === "developer" ? "system" : message.role;
  const toolCallId = message.role === "tool" ? (message.tool_call_id ?? null) : null;
  const toolCalls = (chat.toolCalls ?? []).map((call) => [call.name, sortedKeys(call.arguments)]);
  return JSON.stringify([role, chat.content, toolCalls, toolCallId]);
}

/** `value` with every object's keys in sorted order (arrays keep theirs). */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, item]) => [key, sortedKeys(item)]));
}

/** OpenAI tool definitions as the template's tool specs. */
export function toToolSpecs(tools: readonly TOpenAiTool[] | undefined): ToolSpec[] {
  return (tools ?? []).map((tool) => ({
    name: tool.function.name,
    description: tool.function.description,
    parameters: tool.function.parameters,
  }));
}
