import type { ChatMessage, ToolCall, ToolSpec } from "../model-family.types";
import { toPythonJson } from "../python-json";

/** Qwen3's system-prompt section that lists tools inside <tools></tools>, as its chat template writes it. */
function renderQwen3ToolsSection(tools: readonly ToolSpec[]): string {
  const lines = tools.map((tool) =>
    toPythonJson({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }),
  );
  return (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n" +
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n" +
    lines.join("\n") +
    "\n</tools>\n\nFor each function call, return a json object with function name and arguments within " +
    '<tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
  );
}

function renderQwen3ToolCalls(calls: readonly ToolCall[]): string {
  return calls
    .map(
      (call) =>
        `<tool_call>\n{"name": "${call.name}", "arguments": ${toPythonJson(call.arguments)}}\n</tool_call>`,
    )
    .join("\n");
}

/** The body of an assistant turn: optional thinking block, content, tool calls. */
export function renderQwen3AssistantBody(parts: {
  thinking?: string | null;
  content?: string;
  toolCalls?: readonly ToolCall[];
}): string {
  const content = parts.content ?? "";
  let body =
    parts.thinking == null ? "" : `<think>\n${parts.thinking.replace(/^\n+|\n+$/g, "")}\n</think>\n\n`;
  body += content;
  if (parts.toolCalls && parts.toolCalls.length > 0) {
    body += (content ? "\n" : "") + renderQwen3ToolCalls(parts.toolCalls);
  }
  return body;
}

/**
 * Renders messages in Qwen3's `<|im_start|>role\n…<|im_end|>\n` format. Consecutive `tool`
 * messages share one user turn, each wrapped in <tool_response></tool_response>. Assistant
 * messages are rendered verbatim (thinking kept), as token-in/token-out needs.
 */
export function renderQwen3Messages(messages: readonly ChatMessage[]): string {
  let out = "";
  messages.forEach((message, i) => {
    switch (message.role) {
      case "system":
      case "user":
        out += `<|im_start|>${message.role}\n${message.content}<|im_end|>\n`;
        break;
      case "assistant":
        out += `<|im_start|>assistant\n${renderQwen3AssistantBody({ content: message.content, toolCalls: message.toolCalls })}<|im_end|>\n`;
        break;
      case "tool": {
        if (messages[i - 1]?.role !== "tool") out += "<|im_start|>user";
        out += `\n<tool_response>\n${message.content}\n</tool_response>`;
        if (messages[i + 1]?.role !== "tool") out += "<|im_end|>\n";
        break;
      }
    }
  });
  return out;
}

/** `<|im_start|>assistant\n`, plus an empty thinking block when thinking is off. */
export function renderQwen3GenerationPrompt(enableThinking: boolean): string {
  return `<|im_start|>assistant\n${enableThinking ? "" : "<think>\n\n</think>\n\n"}`;
}

/** The opening prompt: system message (with the tools section when tools are given), messages, generation prompt. */
export function renderQwen3Prompt(
  messages: readonly ChatMessage[],
  options: { tools?: readonly ToolSpec[]; enableThinking?: boolean } = {},
): string {
  const tools = options.tools ?? [];
  let rest = messages;
  let out = "";
  if (tools.length > 0) {
    const first = messages[0];
    const system = first?.role === "system" ? `${first.content}\n\n` : "";
    if (first?.role === "system") rest = messages.slice(1);
    out += `<|im_start|>system\n${system}${renderQwen3ToolsSection(tools)}<|im_end|>\n`;
  }
  return out + renderQwen3Messages(rest) + renderQwen3GenerationPrompt(options.enableThinking ?? true);
}
