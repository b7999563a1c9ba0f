import type { TOpenAiAssistantMessage, TOpenAiToolCall } from "@raas/shared";
import type { ModelFamilyAdapter, Tokenizer } from "../model/model-family.types";
import { randomHex } from "./random-hex";

export type OpenAiFinishReason = "stop" | "length" | "tool_calls";

/**
 * The sampled ids as an OpenAI assistant message: thinking as `reasoning_content`, the visible text
 * as `content`, well-formed tool calls as `tool_calls` (arguments as a JSON string, fresh ids).
 * With `parseToolCalls` false (`tool_choice: "none"`) the text stays whole. A malformed call is
 * left in `content` as written, so the harness sees what the model wrote.
 */
export function toOpenAiAnswer(
  family: ModelFamilyAdapter,
  responseIds: readonly number[],
  options: {
    finishReason: string | null;
    parseToolCalls: boolean;
    knownTools: readonly string[];
    /** How the fresh tool-call ids begin. Default `call_`. */
    toolCallIdPrefix?: string;
  },
): { message: TOpenAiAssistantMessage; finishReason: OpenAiFinishReason } {
  const text = family.tokenizer.decode(responseIds);
  const parsed = family.parseResponse(text, {});
  const calls = options.parseToolCalls ? parsed.toolCalls : [];
  let content = parsed.content;
  if (!options.parseToolCalls || parsed.toolCallErrors.length > 0) {
    content = visibleText(text);
  }
  const toolCalls: TOpenAiToolCall[] = calls.map((call) => ({
    id: `${options.toolCallIdPrefix ?? "call_"}${randomHex(12)}`,
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  const message: TOpenAiAssistantMessage = {
    role: "assistant",
    content: content === "" && toolCalls.length > 0 ? null : content,
    reasoning_content: parsed.thinking,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  const finishReason: OpenAiFinishReason =
    options.finishReason === "length" ? "length" : toolCalls.length > 0 ? "tool_calls" : "stop";
  return { message, finishReason };
}

/** The text after the thinking block (tool-call blocks kept), without trailing end-of-turn tokens, trimmed. */
function visibleText(text: string): string {
  const end = text.indexOf("</think>");
  const rest = end === -1 ? text : text.slice(end + "</think>".length);
  return rest.replace(/(<\|im_end\|>|<\|endoftext\|>)+\s*$/, "").trim();
}

/**
 * Cuts a response after the token that completes the first stop string (as OpenAI servers stop
 * there). The kept ids are a prefix of what was sampled — still the model's own tokens, with their
 * logprobs. Returns the input when no stop string occurs.
 */
export function cutAtStopStrings(
  tokenizer: Tokenizer,
  responseIds: readonly number[],
  logprobs: readonly number[],
  stops: readonly string[],
): { responseIds: number[]; logprobs: number[]; isCut: boolean } {
  const whole = { responseIds: [...responseIds], logprobs: [...logprobs], isCut: false };
  if (stops.length === 0 || responseIds.length === 0) return whole;
  const hasStop = (count: number) => {
    const text = tokenizer.decode(responseIds.slice(0, count));
    return stops.some((stop) => stop !== "" && text.includes(stop));
  };
  if (!hasStop(responseIds.length)) return whole;
  let low = 1;
  let high = responseIds.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (hasStop(middle)) high = middle;
    else low = middle + 1;
  }
  return { responseIds: responseIds.slice(0, low), logprobs: logprobs.slice(0, low), isCut: true };
}
