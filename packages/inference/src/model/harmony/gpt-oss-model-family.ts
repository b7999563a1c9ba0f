import { parseHarmonyResponse } from "../../chat-format/tool-calls/harmony-tool-call.parser";
import { stripTrailingMarkers } from "../../chat-format/tool-calls/tool-call-result";
import type { ModelFamilyAdapter, ParsedResponse, Tokenizer, ToolCallError } from "../model-family.types";
import { loadGptOssTokenizer, readHarmonySpecialIds } from "./gpt-oss-tokenizer";
import {
  HARMONY_GENERATION_PROMPT,
  type ReasoningEffort,
  renderHarmonyAssistantBody,
  renderHarmonyMessages,
  renderHarmonyPrompt,
} from "./harmony-chat-template";

interface GptOssModelFamilyOptions {
  /** Default: gpt-oss's own tokenizer (`loadGptOssTokenizer`). */
  tokenizer?: Tokenizer;
  /** The system message's `Reasoning:` level. Default `medium` (the model's own default). */
  reasoningEffort?: ReasoningEffort;
}

/** gpt-oss's knowledge cutoff, as its system message states it. */
const KNOWLEDGE_CUTOFF = "2024-06";

/**
 * gpt-oss: OpenAI's harmony format (system and developer messages, analysis / commentary / final
 * channels, `functions.NAME` calls with JSON arguments) with the real o200k_harmony vocabulary.
 *
 * Token-in/token-out keeps what the model sampled: an earlier turn stays in the prompt as emitted,
 * with its analysis and a trailing `<|return|>`, where the spec's history would drop the analysis
 * after a final answer and store `<|end|>`. Thinking cannot be switched off in harmony;
 * `enableThinking: false` asks for `Reasoning: low` instead. The model stops after each call
 * (`<|call|>` is a stop token), so a rendered turn with several calls is one the sampler would cut
 * after the first.
 */
export function createGptOssModelFamily(options: GptOssModelFamilyOptions = {}): ModelFamilyAdapter {
  const tokenizer = options.tokenizer ?? loadGptOssTokenizer();
  const ids = readHarmonySpecialIds(tokenizer);
  const reasoningEffort = options.reasoningEffort ?? "medium";
  return {
    family: "gpt-oss",
    tokenizer,
    endOfTurnId: ids.return,
    // A response cut right after a message's `<|end|>` needs no closing either.
    turnEndIds: [ids.return, ids.call, ids.end],
    // gpt-oss's generation config also stops on <|endoftext|>.
    stopTokenIds: [ids.return, ids.call, ids.endOfText],
    renderPrompt(messages, promptOptions = {}) {
      const effort = promptOptions.enableThinking === false ? "low" : reasoningEffort;
      return renderHarmonyPrompt(messages, {
        tools: promptOptions.tools,
        system: { reasoningEffort: effort, knowledgeCutoff: KNOWLEDGE_CUTOFF },
      });
    },
    renderContinuation(messages, continuation) {
      // A response cut at max tokens is closed as a finished message would be.
      const close = continuation.hasEndOfTurn ? "" : "<|end|>";
      return close + renderHarmonyMessages(messages) + HARMONY_GENERATION_PROMPT;
    },
    renderAssistant: (parts) => renderHarmonyAssistantBody(parts),
    parseResponse(text, parseOptions = {}): ParsedResponse {
      return parseHarmonyResponse(stripTrailingMarkers(text, ["<|endoftext|>"]), parseOptions);
    },
    formatToolCallErrors(errors: readonly ToolCallError[]): string {
      const lines = errors.map((error) => `- ${error.message}`);
      return `Your tool call could not be executed:\n${lines.join("\n")}`;
    },
  };
}
