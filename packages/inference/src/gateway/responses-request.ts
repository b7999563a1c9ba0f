import {
  requestFailure,
  type TChatCompletionRequest,
  type TOpenAiMessage,
  type TResponsesInputItem,
  type TResponsesRequest,
} from "@raas/shared";

/** Separates the text parts of one item: separate parts are separate paragraphs to the model. */
const PART_SEPARATOR = "\n";
/**
 * Marks the system message that `instructions` became, so that a later `previous_response_id`
 * leaves it out: a response's instructions are not carried over to the next (OpenAI's rule).
 */
const INSTRUCTIONS_NAME = "instructions";

/** A recorded earlier response: its chat messages and the assistant message it answered with. */
export interface PreviousResponse {
  messages: readonly TOpenAiMessage[];
  answer: TOpenAiMessage;
}

type ChatTool = NonNullable<TChatCompletionRequest["tools"]>[number];
type ToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };
type AssistantTurn = { texts: string[]; reasoning: string[]; toolCalls: ToolCall[] };

/**
 * An OpenAI Responses request as the chat completion request the gateway serves, so that both
 * shapes go through one call path: `instructions` → a leading system message; the previous
 * response's messages and answer (when `previous_response_id` names one) before the input; input
 * message items → messages; each run of reasoning, assistant message and function_call items →
 * one assistant message (as the gateway answered it: `reasoning_content`, `content`, `tool_calls`
 * keyed by `call_id`); function_call_output → a tool message; function tools → functions;
 * `max_output_tokens` → `max_tokens`; reasoning effort `none` → `enable_thinking: false`. Pure;
 * throws a 400 for what the gateway cannot serve (images, item references).
 */
export function toChatRequestFromResponses(
  request: TResponsesRequest,
  previous: PreviousResponse | null,
): TChatCompletionRequest {
  const messages: TOpenAiMessage[] = [];
  if (request.instructions) {
    messages.push({ role: "system", content: request.instructions, name: INSTRUCTIONS_NAME });
  }
  if (previous) {
    messages.push(...previous.messages.filter((message) => !isInstructions(message)), previous.answer);
  }
  messages.push(...toOpenAiMessages(request.input));
  if (messages.length === 0) {
    throw requestFailure("VALIDATION_FAILED", "input holds no items: send at least one message");
  }
  const chat: TChatCompletionRequest = { messages };
  const tools = toFunctionTools(request.tools ?? []);
  if (tools.length > 0) chat.tools = tools;
  const choice = request.tool_choice;
  if (choice !== undefined) {
    chat.tool_choice =
      typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
  }
  if (request.max_output_tokens != null) chat.max_tokens = request.max_output_tokens;
  if (request.temperature != null) chat.temperature = request.temperature;
  if (request.top_p != null) chat.top_p = request.top_p;
  if (request.reasoning?.effort === "none") chat.chat_template_kwargs = { enable_thinking: false };
  return chat;
}

function isInstructions(message: TOpenAiMessage): boolean {
  return message.role === "system" && (message as { name?: unknown }).name === INSTRUCTIONS_NAME;
}

type ResponsesTool = NonNullable<TResponsesRequest["tools"]>[number];

/**
 * The function tools the model is offered. Tools the API provider would run itself (web_search,
 * file_search, code_interpreter, …) have no function the harness executes, so the model is not
 * offered them (Codex sends web_search whatever the model); a namespace's functions are offered
 * under their own names. What the model was offered is what the call records.
 */
function toFunctionTools(tools: readonly ResponsesTool[], where = "tools"): ChatTool[] {
  return tools.flatMap((tool, index): ChatTool[] => {
    if ("tools" in tool && tool.type === "namespace") {
      return toFunctionTools(tool.tools as ResponsesTool[], `${where}[${index}].tools`);
    }
    if (tool.type !== "function") return [];
    if (tool.name === undefined) {
      throw requestFailure("VALIDATION_FAILED", `${where}[${index}]: a function tool needs a name`);
    }
    return [
      {
        type: "function",
        function: {
          name: tool.name,
          description: tool.description ?? "",
          parameters: tool.parameters ?? { type: "object", properties: {} },
        },
      },
    ];
  });
}

function toOpenAiMessages(input: TResponsesRequest["input"]): TOpenAiMessage[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  const messages: TOpenAiMessage[] = [];
  let turn: AssistantTurn | null = null;
  const assistantTurn = (): AssistantTurn => {
    turn ??= { texts: [], reasoning: [], toolCalls: [] };
    return turn;
  };
  const closeTurn = () => {
    if (turn) messages.push(toAssistantMessage(turn));
    turn = null;
  };
  input.forEach((item, index) => {
    const read = readItem(item, index);
    switch (read.kind) {
      case "reasoning":
        assistantTurn().reasoning.push(read.text);
        break;
      case "assistant":
        assistantTurn().texts.push(read.text);
        break;
      case "call":
        assistantTurn().toolCalls.push(read.call);
        break;
      case "message":
        closeTurn();
        messages.push(read.message);
        break;
    }
  });
  closeTurn();
  return messages;
}

type ReadItem =
  | { kind: "reasoning"; text: string }
  | { kind: "assistant"; text: string }
  | { kind: "call"; call: ToolCall }
  | { kind: "message"; message: TOpenAiMessage };

function readItem(given: TResponsesInputItem, index: number): ReadItem {
  const item = given as Record<string, unknown> & TResponsesInputItem;
  if ("role" in item && (item.type === undefined || item.type === "message")) {
    const message = item as Extract<TResponsesInputItem, { role: string }>;
    const text = partsText(message.content, index);
    if (message.role === "assistant") return { kind: "assistant", text };
    return { kind: "message", message: { role: message.role, content: text } };
  }
  switch (item.type) {
    case "function_call": {
      const call = item as Extract<TResponsesInputItem, { type: "function_call" }>;
      return {
        kind: "call",
        call: {
          id: call.call_id,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        },
      };
    }
    case "function_call_output": {
      const output = item as Extract<TResponsesInputItem, { type: "function_call_output" }>;
      return {
        kind: "message",
        message: { role: "tool", tool_call_id: output.call_id, content: partsText(output.output, index) },
      };
    }
    case "reasoning": {
      const reasoning = item as Extract<TResponsesInputItem, { type: "reasoning" }>;
      const parts = reasoning.content && reasoning.content.length > 0 ? reasoning.content : reasoning.summary;
      return { kind: "reasoning", text: parts.map((part) => part.text).join(PART_SEPARATOR) };
    }
    default:
      throw requestFailure(
        "VALIDATION_FAILED",
        `input[${index}]: items of type ${String(item.type)} are not served (or the item is incomplete); the gateway reads message, function_call, function_call_output and reasoning items`,
      );
  }
}

function partsText(content: string | readonly { type: string; text?: string }[], index: number): string {
  if (typeof content === "string") return content;
  return content
    .map((part) => {
      if (part.text === undefined) {
        throw requestFailure(
          "VALIDATION_FAILED",
          `input[${index}]: ${part.type} parts are not supported: the served model reads text`,
        );
      }
      return part.text;
    })
    .join(PART_SEPARATOR);
}

function toAssistantMessage(turn: AssistantTurn): TOpenAiMessage {
  const content = turn.texts.join(PART_SEPARATOR);
  return {
    role: "assistant",
    content: content === "" && turn.toolCalls.length > 0 ? null : content,
    ...(turn.reasoning.length > 0 && { reasoning_content: turn.reasoning.join(PART_SEPARATOR) }),
    ...(turn.toolCalls.length > 0 && { tool_calls: turn.toolCalls }),
  };
}
