import type { TemplateMessage } from "../../chat-template/jinja-chat-template";
import type { ChatMessage, ToolCall, ToolSpec } from "../model-family.types";

/** How a chat template reads an assistant's tool calls: arguments as an object or as JSON text. */
export interface ToolCallShape {
  argumentsAsText: boolean;
  /** DeepSeek V3's template renders calls only when `content` is none. */
  contentNoneWithCalls: boolean;
}

/** A tool in the shape `apply_chat_template(tools=…)` takes. */
export function templateTools(tools: readonly ToolSpec[] | undefined) {
  return (tools ?? []).map((tool) => ({
    type: "function" as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/** An assistant message in the template's shape, with thinking as `reasoning_content` and `thinking`. */
export function templateAssistant(
  parts: { thinking?: string | null; content?: string; toolCalls?: readonly ToolCall[] },
  shape: ToolCallShape,
): TemplateMessage {
  const calls = parts.toolCalls ?? [];
  const content = parts.content ?? "";
  const message: TemplateMessage = {
    role: "assistant",
    content: calls.length > 0 && content === "" && shape.contentNoneWithCalls ? (null as never) : content,
  };
  if (parts.thinking != null) {
    message.reasoning_content = parts.thinking;
    message.thinking = parts.thinking;
  }
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => ({
      type: "function",
      function: {
        name: call.name,
        arguments: shape.argumentsAsText ? JSON.stringify(call.arguments) : call.arguments,
      },
    }));
  }
  return message;
}

/** Messages in the template's shape; a tool message carries its tool's name where known. */
export function templateMessages(messages: readonly ChatMessage[], shape: ToolCallShape): TemplateMessage[] {
  return messages.map((message) => {
    if (message.role === "assistant") return templateAssistant(message, shape);
    const name = (message as { toolName?: string }).toolName;
    return { role: message.role, content: message.content, ...(name && { name }) };
  });
}
