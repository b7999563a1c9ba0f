import type { ModelFamilyAdapter, ParsedResponse, Tokenizer } from "../model-family.types";
import { splitThinkTags } from "../think-tags";
import { formatToolCallErrors } from "../tool-call-feedback";
import { parseHermesToolCalls } from "./hermes-tool-call.parser";
import {
  renderQwen3AssistantBody,
  renderQwen3GenerationPrompt,
  renderQwen3Messages,
  renderQwen3Prompt,
} from "./qwen3-chat-template";
import { loadQwen3Tokenizer, QWEN3_SPECIAL_IDS } from "./qwen3-tokenizer";

const TRAILING_SPECIALS = /(<\|im_end\|>|<\|endoftext\|>)+\s*$/;

/** Qwen3: ChatML template, `<think>` blocks, Hermes tool calls, the real Qwen3 vocabulary. */
export function createQwen3ModelFamily(tokenizer: Tokenizer = loadQwen3Tokenizer()): ModelFamilyAdapter {
  return {
    family: "qwen3",
    tokenizer,
    endOfTurnId: QWEN3_SPECIAL_IDS.imEnd,
    stopTokenIds: [QWEN3_SPECIAL_IDS.imEnd, QWEN3_SPECIAL_IDS.endOfText],
    renderPrompt: (messages, options = {}) => renderQwen3Prompt(messages, options),
    renderContinuation(messages, options) {
      const close = options.hasEndOfTurn ? "\n" : "<|im_end|>\n";
      return (
        close + renderQwen3Messages(messages) + renderQwen3GenerationPrompt(options.enableThinking ?? true)
      );
    },
    renderAssistant: (parts) => renderQwen3AssistantBody(parts),
    parseResponse(text, options = {}): ParsedResponse {
      const { thinking, rest } = splitThinkTags(text.replace(TRAILING_SPECIALS, ""));
      const parsed = parseHermesToolCalls(rest, options.knownTools);
      return {
        thinking,
        content: parsed.textWithoutCalls.trim(),
        toolCalls: parsed.calls,
        toolCallErrors: parsed.errors,
      };
    },
    formatToolCallErrors,
  };
}
