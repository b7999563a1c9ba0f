import type { ModelFamilyAdapter, ParsedResponse, Tokenizer, ToolCallError } from "../model-family.types";
import { parseHermesToolCalls } from "./hermes-tool-call.parser";
import {
  renderQwen3AssistantBody,
  renderQwen3GenerationPrompt,
  renderQwen3Messages,
  renderQwen3Prompt,
} from "./qwen3-chat-template";
import { loadQwen3Tokenizer, QWEN3_SPECIAL_IDS } from "./qwen3-tokenizer";

const TRAILING_SPECIALS = /(<\|im_end\|>|<\|endoftext\|>)+\s*$/;

/** Splits `<think>…</think>` off a response; the opening tag may sit in the prompt already. */
function splitThinking(text: string): { thinking: string | null; rest: string } {
  const end = text.indexOf("</think>");
  if (end === -1) return { thinking: null, rest: text };
  const start = text.lastIndexOf("<think>", end);
  const thinking = text.slice(start === -1 ? 0 : start + "<think>".length, end);
  return { thinking: thinking.replace(/^\n+|\n+$/g, ""), rest: text.slice(end + "</think>".length) };
}

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
      const { thinking, rest } = splitThinking(text.replace(TRAILING_SPECIALS, ""));
      const parsed = parseHermesToolCalls(rest, options.knownTools);
      return {
        thinking,
        content: parsed.textWithoutCalls.trim(),
        toolCalls: parsed.calls,
        toolCallErrors: parsed.errors,
      };
    },
    formatToolCallErrors(errors: readonly ToolCallError[]): string {
      const lines = errors.map((error) => `- ${error.message}`);
      return `Your tool call could not be executed:\n${lines.join("\n")}`;
    },
  };
}
