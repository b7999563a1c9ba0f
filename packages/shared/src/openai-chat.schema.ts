import { z } from "zod";

/** Text content: a string or OpenAI's array of parts (only text parts are accepted). */
const ZMessageContent = z.union([
  z.string(),
  z.array(z.object({ type: z.literal("text"), text: z.string() }).loose()),
]);

const ZOpenAiToolCall = z
  .object({
    id: z.string(),
    type: z.literal("function").default("function"),
    function: z.object({ name: z.string(), arguments: z.string() }),
  })
  .loose();
export type TOpenAiToolCall = z.infer<typeof ZOpenAiToolCall>;

/** One message of an OpenAI chat request. Unknown fields are kept and ignored. */
const ZOpenAiMessage = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: ZMessageContent }).loose(),
  z.object({ role: z.literal("developer"), content: ZMessageContent }).loose(),
  z.object({ role: z.literal("user"), content: ZMessageContent }).loose(),
  z
    .object({
      role: z.literal("assistant"),
      content: ZMessageContent.nullish(),
      reasoning_content: z.string().nullish(),
      tool_calls: z.array(ZOpenAiToolCall).nullish(),
    })
    .loose(),
  z
    .object({ role: z.literal("tool"), content: ZMessageContent, tool_call_id: z.string().optional() })
    .loose(),
]);
export type TOpenAiMessage = z.infer<typeof ZOpenAiMessage>;

const ZOpenAiTool = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string().min(1),
    description: z.string().default(""),
    parameters: z.record(z.string(), z.unknown()).default({ type: "object", properties: {} }),
  }),
});
export type TOpenAiTool = z.infer<typeof ZOpenAiTool>;

/** The part of OpenAI's `POST /v1/chat/completions` request the gateway serves. */
export const ZChatCompletionRequest = z
  .object({
    model: z.string().optional(),
    messages: z.array(ZOpenAiMessage).min(1, "messages must hold at least one message"),
    tools: z.array(ZOpenAiTool).optional(),
    tool_choice: z
      .union([
        z.enum(["auto", "none", "required"]),
        z.object({ type: z.literal("function"), function: z.object({ name: z.string() }) }),
      ])
      .optional(),
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().gt(0).max(1).optional(),
    max_tokens: z.number().int().positive().optional(),
    max_completion_tokens: z.number().int().positive().optional(),
    stop: z.union([z.string(), z.array(z.string()).max(4)]).optional(),
    n: z.literal(1, "the gateway samples one choice per call (n = 1)").optional(),
    seed: z.number().int().optional(),
    stream: z.boolean().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).loose().optional(),
    chat_template_kwargs: z.object({ enable_thinking: z.boolean().optional() }).loose().optional(),
  })
  .loose();
export type TChatCompletionRequest = z.infer<typeof ZChatCompletionRequest>;

/** The assistant message the gateway answers with. */
export interface TOpenAiAssistantMessage {
  role: "assistant";
  content: string | null;
  /** The thinking block's text (as vLLM's reasoning parsers return it); null when there was none. */
  reasoning_content: string | null;
  tool_calls?: TOpenAiToolCall[];
}

export interface TChatCompletion {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: [
    {
      index: 0;
      message: TOpenAiAssistantMessage;
      finish_reason: "stop" | "length" | "tool_calls";
      /** The stop string that ended the answer (left out of its text), as vLLM reports it; null when none did. */
      stop_reason?: string | null;
      logprobs: null;
    },
  ];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}
