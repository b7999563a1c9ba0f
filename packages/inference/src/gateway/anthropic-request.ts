import {
  requestFailure,
  type TAnthropicContentBlock,
  type TAnthropicCountTokensRequest,
  type TAnthropicMessageParam,
  type TAnthropicMessagesRequest,
  type TChatCompletionRequest,
  type TOpenAiMessage,
} from "@raas/shared";

/**
 * Joins a turn's text blocks: nothing, they are one text cut in pieces. Clients write the breaks
 * they mean into the blocks (Claude Code ends its `<system-reminder>` block with "\n\n"), and an
 * answer a client split into blocks must read back as the text that was sampled.
 */
const BLOCK_SEPARATOR = "";

/** Begins the text of a tool_result with `is_error`: chat templates have no flag for it. */
const TOOL_ERROR_PREFIX = "Error: ";

/**
 * An Anthropic Messages request as the chat completion request the gateway serves, so that both
 * shapes go through one call path (the same prompt rendering, recorded call and certificate):
 * `system` → a system message; assistant turns' thinking/text/tool_use blocks → one assistant
 * message (`reasoning_content`, `content`, `tool_calls` with the tool_use ids); a user turn's
 * tool_result blocks → tool messages (an `is_error` one's text begun with "Error: "), its text
 * blocks → a user message; text blocks of one turn are joined as written; `tools` → functions;
 * `tool_choice` any/tool/none → required/named/none; `stop_sequences` → `stop`; thinking
 * disabled → `enable_thinking: false`. The sampling fields are carried over as they are, for the
 * job's sampling rules to judge. Pure; throws a 400 for what the served model cannot read.
 */
export function toChatRequestFromAnthropic(
  request: TAnthropicMessagesRequest | TAnthropicCountTokensRequest,
): TChatCompletionRequest {
  const messages: TOpenAiMessage[] = [];
  const system = systemText(request.system);
  if (system !== null) messages.push({ role: "system", content: system });
  request.messages.forEach((message, index) => {
    messages.push(...toOpenAiMessages(message, index));
  });
  const chat: TChatCompletionRequest = { messages };
  if (request.tools) {
    chat.tools = request.tools.map((tool) => ({
      type: "function" as const,
      function: { name: tool.name, description: tool.description, parameters: tool.input_schema },
    }));
  }
  const choice = request.tool_choice;
  if (choice) {
    chat.tool_choice =
      choice.type === "any"
        ? "required"
        : choice.type === "tool"
          ? { type: "function", function: { name: choice.name } }
          : choice.type;
  }
  if (request.thinking?.type === "disabled") chat.chat_template_kwargs = { enable_thinking: false };
  // A count_tokens request has none of these.
  const limits: Partial<TAnthropicMessagesRequest> = request;
  if (limits.max_tokens !== undefined) chat.max_tokens = limits.max_tokens;
  if (limits.stop_sequences && limits.stop_sequences.length > 0) chat.stop = limits.stop_sequences;
  for (const field of ["temperature", "top_p", "top_k"] as const) {
    if (limits[field] !== undefined) chat[field] = limits[field];
  }
  return chat;
}

function systemText(system: TAnthropicMessagesRequest["system"]): string | null {
  if (system === undefined) return null;
  if (typeof system === "string") return system;
  if (system.length === 0) return null;
  return system.map((block) => block.text).join(BLOCK_SEPARATOR);
}

function toOpenAiMessages(message: TAnthropicMessageParam, index: number): TOpenAiMessage[] {
  if (typeof message.content === "string") return [{ role: message.role, content: message.content }];
  switch (message.role) {
    case "assistant":
      return [toAssistantMessage(message.content, index)];
    case "user":
      return toUserMessages(message.content, index);
    case "system":
      return [{ role: "system", content: textOf(message.content, index) }];
  }
}

function textOf(blocks: readonly TAnthropicContentBlock[], index: number): string {
  return blocks
    .map((block) => {
      if (block.type !== "text") throw unreadableBlock(block.type, index, "a system turn");
      return block.text;
    })
    .join(BLOCK_SEPARATOR);
}

function toAssistantMessage(blocks: readonly TAnthropicContentBlock[], index: number): TOpenAiMessage {
  const texts: string[] = [];
  const thinking: string[] = [];
  const toolCalls: { id: string; type: "function"; function: { name: string; arguments: string } }[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        texts.push(block.text);
        break;
      case "thinking":
        thinking.push(block.thinking);
        break;
      case "redacted_thinking":
        break;
      case "tool_use":
        toolCalls.push({
          id: block.id,
          type: "function",
          function: { name: block.name, arguments: JSON.stringify(block.input) },
        });
        break;
      default:
        throw unreadableBlock(block.type, index, "an assistant turn");
    }
  }
  const content = texts.join(BLOCK_SEPARATOR);
  return {
    role: "assistant",
    content: content === "" && toolCalls.length > 0 ? null : content,
    ...(thinking.length > 0 && { reasoning_content: thinking.join(BLOCK_SEPARATOR) }),
    ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
  };
}

/** Tool results become tool messages in their place; text between them one user message. */
function toUserMessages(blocks: readonly TAnthropicContentBlock[], index: number): TOpenAiMessage[] {
  const messages: TOpenAiMessage[] = [];
  let texts: string[] = [];
  const flushText = () => {
    if (texts.length > 0) messages.push({ role: "user", content: texts.join(BLOCK_SEPARATOR) });
    texts = [];
  };
  for (const block of blocks) {
    if (block.type === "text") {
      texts.push(block.text);
    } else if (block.type === "tool_result") {
      flushText();
      messages.push({ role: "tool", tool_call_id: block.tool_use_id, content: toolResultText(block, index) });
    } else {
      throw unreadableBlock(block.type, index, "a user turn");
    }
  }
  flushText();
  // A user turn of no blocks at all is still a (empty) turn.
  if (messages.length === 0) messages.push({ role: "user", content: "" });
  return messages;
}

function toolResultText(block: Extract<TAnthropicContentBlock, { type: "tool_result" }>, index: number) {
  const text = toolResultContent(block, index);
  return block.is_error === true ? `${TOOL_ERROR_PREFIX}${text}` : text;
}

function toolResultContent(block: Extract<TAnthropicContentBlock, { type: "tool_result" }>, index: number) {
  const { content } = block;
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content
    .map((part) => {
      if (part.type !== "text") throw unreadableBlock(part.type, index, "a tool_result");
      return part.text;
    })
    .join(BLOCK_SEPARATOR);
}

function unreadableBlock(type: string, index: number, where: string) {
  return requestFailure(
    "VALIDATION_FAILED",
    `messages[${index}]: ${type} blocks in ${where} are not supported: the served model reads text, thinking, tool_use and tool_result blocks`,
  );
}
