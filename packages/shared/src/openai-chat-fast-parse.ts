// The gateway parses every harness call's request: a hand-written reading of the usual request
// that gives exactly what `ZChatCompletionRequest.parse` gives (known keys in schema order, unknown
// keys kept after them, defaults filled, tools' unknown keys dropped), at a fraction of its cost.
// Anything it is not sure of goes to the schema, which decides and words the error.
import { type TChatCompletionRequest, ZChatCompletionRequest } from "./openai-chat.schema";

type Json = Record<string, unknown>;

/** Returned by a reader for a value the fast path does not take (the schema decides). */
const UNSURE = Symbol("unsure");
type Read = (value: unknown) => unknown;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const str: Read = (value) => (typeof value === "string" ? value : UNSURE);
const bool: Read = (value) => (typeof value === "boolean" ? value : UNSURE);
const int: Read = (value) => (Number.isSafeInteger(value) ? value : UNSURE);
const positiveInt: Read = (value) => (Number.isSafeInteger(value) && (value as number) > 0 ? value : UNSURE);
const nullish =
  (read: Read): Read =>
  (value) =>
    value === null ? null : read(value);
const number =
  (min: number, max: number, isMinOpen = false): Read =>
  (value) =>
    typeof value === "number" &&
    Number.isFinite(value) &&
    (isMinOpen ? value > min : value >= min) &&
    value <= max
      ? value
      : UNSURE;

/**
 * An object read key by key: `shape`'s keys in order (absent ones left out unless they have a
 * default; UNSURE when a required one is absent), then, when `keepsUnknown`, the others in their
 * order; UNSURE as soon as one is.
 */
function object(
  shape: Record<string, Read>,
  options: { keepsUnknown: boolean; required?: readonly string[]; defaults?: Record<string, () => unknown> },
): Read {
  const keys = Object.keys(shape);
  return (value) => {
    if (!isObject(value)) return UNSURE;
    const out: Json = {};
    for (const key of keys) {
      if (!Object.hasOwn(value, key)) {
        if (options.required?.includes(key)) return UNSURE;
        const fill = options.defaults?.[key];
        if (fill) out[key] = fill();
        continue;
      }
      const read = (shape[key] as Read)(value[key]);
      if (read === UNSURE) return UNSURE;
      out[key] = read;
    }
    for (const key of Object.keys(value)) {
      if (key === "__proto__") return UNSURE;
      if (options.keepsUnknown && !Object.hasOwn(shape, key)) out[key] = value[key];
    }
    return out;
  };
}

function array(read: Read, limits: { min?: number; max?: number } = {}): Read {
  return (value) => {
    if (!Array.isArray(value)) return UNSURE;
    if (value.length < (limits.min ?? 0) || value.length > (limits.max ?? Number.POSITIVE_INFINITY)) {
      return UNSURE;
    }
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i += 1) {
      const item = read(value[i]);
      if (item === UNSURE) return UNSURE;
      out[i] = item;
    }
    return out;
  };
}

const textPart = object(
  { type: (value) => (value === "text" ? value : UNSURE), text: str },
  { keepsUnknown: true, required: ["type", "text"] },
);
const textParts = array(textPart);
const content: Read = (value) => (typeof value === "string" ? value : textParts(value));
const toolCall = object(
  {
    id: str,
    type: (value) => (value === "function" ? value : UNSURE),
    function: object({ name: str, arguments: str }, { keepsUnknown: false, required: ["name", "arguments"] }),
  },
  { keepsUnknown: true, required: ["id", "function"], defaults: { type: () => "function" } },
);
const plainMessage = (role: string) =>
  object(
    { role: (value) => (value === role ? value : UNSURE), content },
    { keepsUnknown: true, required: ["role", "content"] },
  );
const MESSAGES: Record<string, Read> = {
  system: plainMessage("system"),
  developer: plainMessage("developer"),
  user: plainMessage("user"),
  assistant: object(
    {
      role: (value) => (value === "assistant" ? value : UNSURE),
      content: nullish(content),
      reasoning_content: nullish(str),
      tool_calls: nullish(array(toolCall)),
    },
    { keepsUnknown: true, required: ["role"] },
  ),
  tool: object(
    { role: (value) => (value === "tool" ? value : UNSURE), content, tool_call_id: str },
    { keepsUnknown: true, required: ["role", "content"] },
  ),
};
const message: Read = (value) => {
  if (!isObject(value) || typeof value.role !== "string" || !Object.hasOwn(MESSAGES, value.role)) {
    return UNSURE;
  }
  return (MESSAGES[value.role] as Read)(value);
};
/** `z.record(z.string(), z.unknown())`: every key kept, in its order. */
const record = object({}, { keepsUnknown: true });
const tool = object(
  {
    type: (value) => (value === "function" ? value : UNSURE),
    function: object(
      {
        name: (value) => (typeof value === "string" && value.length > 0 ? value : UNSURE),
        description: str,
        parameters: record,
      },
      {
        keepsUnknown: false,
        required: ["name"],
        defaults: { description: () => "", parameters: () => ({ type: "object", properties: {} }) },
      },
    ),
  },
  { keepsUnknown: false, required: ["type", "function"] },
);
const toolChoiceFunction = object(
  {
    type: (type) => (type === "function" ? type : UNSURE),
    function: object({ name: str }, { keepsUnknown: false, required: ["name"] }),
  },
  { keepsUnknown: false, required: ["type", "function"] },
);
const toolChoice: Read = (value) =>
  value === "auto" || value === "none" || value === "required" ? value : toolChoiceFunction(value);
const stop: Read = (value) => (typeof value === "string" ? value : array(str, { max: 4 })(value));
const request = object(
  {
    model: str,
    messages: array(message, { min: 1 }),
    tools: array(tool),
    tool_choice: toolChoice,
    temperature: number(0, 2),
    top_p: number(0, 1, true),
    max_tokens: positiveInt,
    max_completion_tokens: positiveInt,
    stop,
    n: (value) => (value === 1 ? value : UNSURE),
    seed: int,
    stream: bool,
    stream_options: object({ include_usage: bool }, { keepsUnknown: true }),
    chat_template_kwargs: object({ enable_thinking: bool }, { keepsUnknown: true }),
  },
  { keepsUnknown: true, required: ["messages"] },
);

/** The usual request read without the schema; null when the schema must decide. */
export function readChatCompletionRequestFast(body: unknown): TChatCompletionRequest | null {
  const read = request(body);
  return read === UNSURE ? null : (read as TChatCompletionRequest);
}

/** `ZChatCompletionRequest.parse(body)`, the usual request without the schema's cost. */
export function parseChatCompletionRequest(body: unknown): TChatCompletionRequest {
  return readChatCompletionRequestFast(body) ?? ZChatCompletionRequest.parse(body);
}
