import type {
  TAnthropicAnswerBlock,
  TAnthropicMessage,
  TAnthropicStopReason,
  TChatCompletion,
  TOpenAiAssistantMessage,
} from "@raas/shared";

/** The gateway's call id inside an Anthropic message id. */
export function anthropicMessageId(callId: string): string {
  return `msg_${callId}`;
}

/**
 * The opaque `signature` a thinking block carries. Anthropic's clients send thinking blocks back
 * with it; the gateway does not verify it (a thinking block's text never decides how a history
 * continues), it only names the call that wrote it.
 */
export function thinkingSignature(callId: string): string {
  return `raas:${callId}`;
}

/** An assistant answer as Anthropic content blocks: thinking, then text, then tool_use. */
function toAnthropicBlocks(message: TOpenAiAssistantMessage, callId: string): TAnthropicAnswerBlock[] {
  const blocks: TAnthropicAnswerBlock[] = [];
  if (message.reasoning_content) {
    blocks.push({
      type: "thinking",
      thinking: message.reasoning_content,
      signature: thinkingSignature(callId),
    });
  }
  if (message.content) blocks.push({ type: "text", text: message.content });
  for (const call of message.tool_calls ?? []) {
    blocks.push({
      type: "tool_use",
      id: call.id,
      name: call.function.name,
      input: JSON.parse(call.function.arguments) as Record<string, unknown>,
    });
  }
  return blocks;
}

/** Why the answer ended, in Anthropic's words (a stop string the gateway cut at is `stop_sequence`). */
function anthropicStopOf(completion: TChatCompletion): {
  stopReason: TAnthropicStopReason;
  stopSequence: string | null;
} {
  const [choice] = completion.choices;
  if (choice.finish_reason === "tool_calls") return { stopReason: "tool_use", stopSequence: null };
  if (choice.finish_reason === "length") return { stopReason: "max_tokens", stopSequence: null };
  const stop = choice.stop_reason ?? null;
  return stop === null
    ? { stopReason: "end_turn", stopSequence: null }
    : { stopReason: "stop_sequence", stopSequence: stop };
}

/** A chat completion of the gateway as Anthropic's `message` object. */
export function toAnthropicMessage(completion: TChatCompletion, callId: string): TAnthropicMessage {
  const { stopReason, stopSequence } = anthropicStopOf(completion);
  return {
    id: anthropicMessageId(callId),
    type: "message",
    role: "assistant",
    model: completion.model,
    content: toAnthropicBlocks(completion.choices[0].message, callId),
    stop_reason: stopReason,
    stop_sequence: stopSequence,
    usage: {
      input_tokens: completion.usage.prompt_tokens,
      output_tokens: completion.usage.completion_tokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
}
