import type { ChatFormat, ParsedChatResponse } from "@raas/engine";
import { createGptOssModelFamily } from "../model/harmony/gpt-oss-model-family";
import type { ChatMessage, ModelFamilyAdapter } from "../model/model-family.types";
import { createQwen3ModelFamily } from "../model/qwen3/qwen3-model-family";
import { isTurnClosed } from "../model/turn-end";

/**
 * The engine's `ChatFormat` port over a model family: templates with the family's chat template,
 * tokenizes only new text (token-in/token-out) and parses responses with its tool-call format.
 */
export function createModelChatFormat(family: ModelFamilyAdapter): ChatFormat {
  const { tokenizer } = family;
  return {
    family: family.family,
    stopTokenIds: family.stopTokenIds,
    renderInitialPrompt(input) {
      const messages: ChatMessage[] = [
        { role: "system", content: input.systemPrompt },
        { role: "user", content: input.userMessage },
      ];
      const text = family.renderPrompt(messages, {
        tools: input.tools,
        enableThinking: input.enableThinking ?? true,
      });
      return tokenizer.encode(text);
    },
    parseResponse(responseIds): ParsedChatResponse {
      const parsed = family.parseResponse(tokenizer.decode(responseIds));
      return {
        thinking: parsed.thinking,
        content: parsed.content,
        toolCalls: parsed.toolCalls,
        callErrors: parsed.toolCallErrors.map((error) => ({ raw: error.raw, message: error.message })),
      };
    },
    renderObservations({ responseIds, observations, enableThinking }) {
      const text = family.renderContinuation(
        observations.map(({ role, content, toolName }) => ({ role, content, ...(toolName && { toolName }) })),
        { hasEndOfTurn: isTurnClosed(family, responseIds.at(-1)), enableThinking: enableThinking ?? true },
      );
      return tokenizer.encode(text);
    },
    decode: (ids) => tokenizer.decode(ids),
  };
}

/** Qwen3's chat format (ChatML, `<think>`, Hermes tool calls) with its real tokenizer. */
export function createQwen3ChatFormat(family: ModelFamilyAdapter = createQwen3ModelFamily()): ChatFormat {
  return createModelChatFormat(family);
}

/** gpt-oss's chat format (harmony: channels, `functions.NAME` calls) with its real tokenizer. */
export function createGptOssChatFormat(family: ModelFamilyAdapter = createGptOssModelFamily()): ChatFormat {
  return createModelChatFormat(family);
}
