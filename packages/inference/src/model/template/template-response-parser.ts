import { parseDeepSeekV3Response } from "../../chat-format/tool-calls/deepseek-v3-tool-call.parser";
import { parseHarmonyResponse } from "../../chat-format/tool-calls/harmony-tool-call.parser";
import { parseLlama31Response } from "../../chat-format/tool-calls/llama31-tool-call.parser";
import { stripTrailingMarkers } from "../../chat-format/tool-calls/tool-call-result";
import type { ReasoningFormat, ToolCallFormat } from "../../chat-template/probe-markers";
import type { ParsedResponse } from "../model-family.types";
import { parseHermesToolCalls } from "../qwen3/hermes-tool-call.parser";
import { splitThinkTags } from "../think-tags";

type ParseCalls = (text: string, knownTools: readonly string[] | undefined) => ParsedResponse;

const PARSERS: Record<ToolCallFormat, ParseCalls> = {
  "hermes-json": (text, knownTools) => {
    const parsed = parseHermesToolCalls(text, knownTools);
    return {
      thinking: null,
      content: parsed.textWithoutCalls.trim(),
      toolCalls: parsed.calls,
      toolCallErrors: parsed.errors,
    };
  },
  "llama3-json": (text, knownTools) => parseLlama31Response(text, knownTools && { knownTools }),
  "deepseek-v3": (text, knownTools) => parseDeepSeekV3Response(text, knownTools && { knownTools }),
  harmony: (text, knownTools) => parseHarmonyResponse(text, knownTools && { knownTools }),
};

/**
 * A response parser for a family known by its formats: reasoning split off by its markers, tool
 * calls read in the family's format; with no known tool-call format, all text is content (the
 * family's load reports the missing capability rather than guessing a format). Never throws.
 */
export function createTemplateResponseParser(formats: {
  toolCallFormat?: ToolCallFormat;
  reasoningFormat?: ReasoningFormat;
  /** Special-token texts that may end a response (end of turn, end of sequence). */
  endMarkers: readonly string[];
}): (text: string, options?: { knownTools?: readonly string[] }) => ParsedResponse {
  const { toolCallFormat, reasoningFormat, endMarkers } = formats;
  return (text, options = {}) => {
    if (toolCallFormat === "harmony") return PARSERS.harmony(text, options.knownTools);
    const { thinking, rest } =
      reasoningFormat === "think-tags" ? splitThinkTags(text) : { thinking: null, rest: text };
    // Llama's and DeepSeek's parsers read the end markers themselves (a call without one was cut off).
    const isSelfEnding = toolCallFormat === "llama3-json" || toolCallFormat === "deepseek-v3";
    const body = isSelfEnding ? rest : stripTrailingMarkers(rest, endMarkers);
    if (!toolCallFormat) return { thinking, content: body.trim(), toolCalls: [], toolCallErrors: [] };
    const parsed = PARSERS[toolCallFormat](body, options.knownTools);
    return { ...parsed, thinking: thinking ?? parsed.thinking };
  };
}
