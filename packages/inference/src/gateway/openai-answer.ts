import type { TOpenAiAssistantMessage, TOpenAiToolCall } from "@raas/shared";
import type { ModelFamilyAdapter, Tokenizer } from "../model/model-family.types";
import { randomHex } from "./random-hex";

export type OpenAiFinishReason = "stop" | "length" | "tool_calls";

/**
 * The sampled ids as an OpenAI assistant message: thinking as `reasoning_content`, the visible text
 * as `content`, well-formed tool calls as `tool_calls` (arguments as a JSON string, fresh ids).
 * With `parseToolCalls` false (`tool_choice: "none"`) the text stays whole. A malformed call is
 * left in `content` as written, so the harness sees what the model wrote. The text ends before
 * the first of `stops` it holds (the stop string is not part of the answer, as OpenAI's and
 * Anthropic's APIs say; the sampled ids keep it), and `stopSequence` names that stop string.
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
    /** The request's stop strings. Default none. */
    stops?: readonly string[];
  },
): { message: TOpenAiAssistantMessage; finishReason: OpenAiFinishReason; stopSequence: string | null } {
  const sampled = family.tokenizer.decode(responseIds);
  const stop = firstStop(sampled, options.stops ?? []);
  const text = stop ? sampled.slice(0, stop.at) : sampled;
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
    options.finishReason === "length" && stop === null
      ? "length"
      : toolCalls.length > 0
        ? "tool_calls"
        : "stop";
  return { message, finishReason, stopSequence: stop?.stop ?? null };
}

/** The stop string that occurs first in `text` (the longest one there), and where; null when none does. */
function firstStop(text: string, stops: readonly string[]): { at: number; stop: string } | null {
  let found: { at: number; stop: string } | null = null;
  for (const stop of stops) {
    const at = stop === "" ? -1 : text.indexOf(stop);
    if (at === -1) continue;
    if (found === null || at < found.at || (at === found.at && stop.length > found.stop.length)) {
      found = { at, stop };
    }
  }
  return found;
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
