import type { TResponsesResponse } from "@raas/shared";

// What the record keeps of a request or answer in another API shape (`ZGatewayExchange`): the part
// of the conversation this call added, in the harness's own shape. The history it repeats, the
// system prompt and the tools are in the record already (as chat messages and tools).

type Json = Record<string, unknown>;

/** An Anthropic Messages request without `system`, `tools` and the messages up to its last assistant turn. */
export function anthropicRequestForRecord(body: Json): Json {
  const { system: _system, tools: _tools, messages, ...rest } = body;
  return { ...rest, messages: afterLastAnswer(messages, isAnthropicAnswer) };
}

/** A Responses request without `instructions`, `tools` and the input up to the model's last item. */
export function responsesRequestForRecord(body: Json): Json {
  const { instructions: _instructions, tools: _tools, input, ...rest } = body;
  return { ...rest, input: typeof input === "string" ? input : afterLastAnswer(input, isResponsesAnswer) };
}

/** A response without the request fields it echoes (`instructions`, `tools`). */
export function responsesResponseForRecord(response: TResponsesResponse): Json {
  const { instructions: _instructions, tools: _tools, ...rest } = response;
  return rest;
}

/** The items after the last one the model wrote (all of them when it wrote none). */
function afterLastAnswer(items: unknown, isAnswer: (item: Json) => boolean): unknown {
  if (!Array.isArray(items)) return items;
  let last = -1;
  items.forEach((item, at) => {
    if (isJson(item) && isAnswer(item)) last = at;
  });
  return items.slice(last + 1);
}

function isAnthropicAnswer(message: Json): boolean {
  return message.role === "assistant";
}

const MODEL_ITEM_TYPES = new Set(["function_call", "reasoning"]);

function isResponsesAnswer(item: Json): boolean {
  return item.role === "assistant" || (typeof item.type === "string" && MODEL_ITEM_TYPES.has(item.type));
}

function isJson(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
