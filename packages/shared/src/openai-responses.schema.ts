import { z } from "zod";

// The part of OpenAI's Responses API (`POST /v1/responses`) the inference gateway serves. Unknown
// fields (store, include, text, metadata, encrypted reasoning) are kept and ignored.

/** A text part of a message item (`input_text` from the user, `output_text` from the model). */
const ZTextPart = z
  .object({ type: z.enum(["input_text", "output_text", "text", "refusal"]), text: z.string().optional() })
  .loose()
  .transform((part) => ({ ...part, text: part.text ?? (part as { refusal?: string }).refusal ?? "" }));
const ZOtherPart = z.object({ type: z.enum(["input_image", "input_file", "input_audio"]) }).loose();

const ZMessageItem = z
  .object({
    type: z.literal("message").optional(),
    role: z.enum(["user", "assistant", "system", "developer"]),
    content: z.union([z.string(), z.array(z.union([ZTextPart, ZOtherPart]))]),
  })
  .loose();

const ZFunctionCallItem = z
  .object({
    type: z.literal("function_call"),
    call_id: z.string().min(1),
    name: z.string().min(1),
    arguments: z.string(),
  })
  .loose();

const ZFunctionCallOutputItem = z
  .object({
    type: z.literal("function_call_output"),
    call_id: z.string().min(1),
    output: z.union([z.string(), z.array(z.union([ZTextPart, ZOtherPart]))]),
  })
  .loose();

const ZReasoningItem = z
  .object({
    type: z.literal("reasoning"),
    summary: z.array(z.object({ text: z.string() }).loose()).default([]),
    content: z.array(z.object({ text: z.string() }).loose()).nullish(),
  })
  .loose();

/** Any other item type (item_reference, hosted tool calls): refused by the mapper with a sentence. */
const SERVED_ITEM_TYPES = ["message", "function_call", "function_call_output", "reasoning"];
const ZOtherItem = z
  .object({
    type: z.string().refine((type) => !SERVED_ITEM_TYPES.includes(type), "this item is incomplete"),
  })
  .loose();

const ZInputItem = z.union([
  ZMessageItem,
  ZFunctionCallItem,
  ZFunctionCallOutputItem,
  ZReasoningItem,
  ZOtherItem,
]);
export type TResponsesInputItem = z.infer<typeof ZInputItem>;

/** A function tool, or any other type (hosted tools the gateway leaves out). */
const ZResponsesLeafTool = z
  .object({
    type: z.string(),
    name: z.string().min(1).optional(),
    description: z.string().nullish(),
    parameters: z.record(z.string(), z.unknown()).nullish(),
  })
  .loose();

/** A group of tools under one name (Codex sends its sub-agent tools so). */
const ZResponsesNamespaceTool = z
  .object({ type: z.literal("namespace"), name: z.string().optional(), tools: z.array(ZResponsesLeafTool) })
  .loose();

const ZResponsesTool = z.union([ZResponsesNamespaceTool, ZResponsesLeafTool]);

/** A `POST /v1/responses` request. */
export const ZResponsesRequest = z
  .object({
    model: z.string().optional(),
    instructions: z.string().nullish(),
    input: z.union([z.string(), z.array(ZInputItem)]),
    tools: z.array(ZResponsesTool).optional(),
    tool_choice: z
      .union([
        z.enum(["auto", "none", "required"]),
        z.object({ type: z.literal("function"), name: z.string().min(1) }).loose(),
      ])
      .optional(),
    previous_response_id: z.string().nullish(),
    max_output_tokens: z.number().int().positive().nullish(),
    temperature: z.number().min(0).max(2).nullish(),
    top_p: z.number().gt(0).max(1).nullish(),
    stream: z.boolean().optional(),
    reasoning: z.object({ effort: z.string().nullish() }).loose().nullish(),
  })
  .loose();
export type TResponsesRequest = z.infer<typeof ZResponsesRequest>;

/** An output item of the gateway's answer. */
export type TResponsesOutputItem =
  | {
      id: string;
      type: "reasoning";
      summary: { type: "summary_text"; text: string }[];
      content: { type: "reasoning_text"; text: string }[];
    }
  | {
      id: string;
      type: "message";
      status: "completed";
      role: "assistant";
      content: { type: "output_text"; text: string; annotations: unknown[] }[];
    }
  | {
      id: string;
      type: "function_call";
      status: "completed";
      call_id: string;
      name: string;
      arguments: string;
    };

/** The gateway's answer to `POST /v1/responses`. */
export interface TResponsesResponse {
  id: string;
  object: "response";
  created_at: number;
  status: "completed" | "incomplete" | "in_progress";
  incomplete_details: { reason: "max_output_tokens" } | null;
  error: null;
  model: string;
  instructions: string | null;
  previous_response_id: string | null;
  max_output_tokens: number | null;
  output: TResponsesOutputItem[];
  parallel_tool_calls: boolean;
  tool_choice: unknown;
  tools: unknown[];
  usage: {
    input_tokens: number;
    input_tokens_details: { cached_tokens: number };
    output_tokens: number;
    output_tokens_details: { reasoning_tokens: number };
    total_tokens: number;
  } | null;
}
