import { z } from "zod";

// The part of Anthropic's Messages API (`POST /v1/messages`) the inference gateway serves. Unknown
// fields (cache_control, citations, metadata, betas) are kept and ignored; block types the served
// model cannot read (images, documents) are accepted here and refused by the mapper with a sentence.

const ZTextBlock = z.object({ type: z.literal("text"), text: z.string() }).loose();
const ZImageBlock = z.object({ type: z.literal("image") }).loose();
const ZDocumentBlock = z.object({ type: z.literal("document") }).loose();

const ZToolUseBlock = z
  .object({
    type: z.literal("tool_use"),
    id: z.string().min(1),
    name: z.string().min(1),
    input: z.record(z.string(), z.unknown()).default({}),
  })
  .loose();

const ZToolResultBlock = z
  .object({
    type: z.literal("tool_result"),
    tool_use_id: z.string().min(1),
    content: z.union([z.string(), z.array(z.union([ZTextBlock, ZImageBlock, ZDocumentBlock]))]).optional(),
    is_error: z.boolean().optional(),
  })
  .loose();

const ZThinkingBlock = z
  .object({ type: z.literal("thinking"), thinking: z.string(), signature: z.string().optional() })
  .loose();
const ZRedactedThinkingBlock = z.object({ type: z.literal("redacted_thinking") }).loose();

const ZContentBlock = z.discriminatedUnion("type", [
  ZTextBlock,
  ZImageBlock,
  ZDocumentBlock,
  ZToolUseBlock,
  ZToolResultBlock,
  ZThinkingBlock,
  ZRedactedThinkingBlock,
]);
export type TAnthropicContentBlock = z.infer<typeof ZContentBlock>;

const ZAnthropicMessage = z
  .object({
    // Claude Code (2.1) also sends system turns between the others (agent lists, reminders).
    role: z.enum(["user", "assistant", "system"]),
    content: z.union([z.string(), z.array(ZContentBlock)]),
  })
  .loose();
export type TAnthropicMessageParam = z.infer<typeof ZAnthropicMessage>;

const ZAnthropicTool = z
  .object({
    name: z.string().min(1),
    description: z.string().default(""),
    input_schema: z.record(z.string(), z.unknown()).default({ type: "object", properties: {} }),
  })
  .loose();

const ZAnthropicToolChoice = z.discriminatedUnion("type", [
  z.object({ type: z.literal("auto") }).loose(),
  z.object({ type: z.literal("any") }).loose(),
  z.object({ type: z.literal("none") }).loose(),
  z.object({ type: z.literal("tool"), name: z.string().min(1) }).loose(),
]);

/** What a `POST /v1/messages/count_tokens` request holds: a message request without its limits. */
export const ZAnthropicCountTokensRequest = z
  .object({
    model: z.string().optional(),
    system: z.union([z.string(), z.array(ZTextBlock)]).optional(),
    messages: z.array(ZAnthropicMessage).min(1, "messages must hold at least one message"),
    tools: z.array(ZAnthropicTool).optional(),
    tool_choice: ZAnthropicToolChoice.optional(),
    thinking: z
      .object({ type: z.enum(["enabled", "disabled", "adaptive"]), budget_tokens: z.number().optional() })
      .loose()
      .optional(),
  })
  .loose();
export type TAnthropicCountTokensRequest = z.infer<typeof ZAnthropicCountTokensRequest>;

/** A `POST /v1/messages` request. */
export const ZAnthropicMessagesRequest = ZAnthropicCountTokensRequest.extend({
  max_tokens: z.number().int().positive(),
  stop_sequences: z.array(z.string()).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().gt(0).max(1).optional(),
  top_k: z.number().int().optional(),
  stream: z.boolean().optional(),
});
export type TAnthropicMessagesRequest = z.infer<typeof ZAnthropicMessagesRequest>;

/** A content block of the gateway's answer. */
export type TAnthropicAnswerBlock =
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export type TAnthropicStopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence";

/** The gateway's answer to `POST /v1/messages`. */
export interface TAnthropicMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: TAnthropicAnswerBlock[];
  stop_reason: TAnthropicStopReason;
  stop_sequence: string | null;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
  };
}
