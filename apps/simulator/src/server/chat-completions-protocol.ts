import {
  createSegmentCachedTokenizer,
  type ModelFamilyAdapter,
  toChatMessage,
  toOpenAiAnswer,
  toToolSpecs,
} from "@raas/inference";
import { parseChatCompletionRequest } from "@raas/shared";
import { z } from "zod";
import { openAiUsage, type WireProtocol } from "./protocols";

/** `max_tokens` of a request that gives none (vLLM's default is the context's room). */
const DEFAULT_MAX_TOKENS = 4_096;

/**
 * vLLM's OpenAI-compatible `/v1/chat/completions`, as a harness calls a model server directly: the
 * server renders the messages with the served family's chat template (history as that template
 * renders it: Qwen3's drops past turns' thinking), tokenizes them, and parses the answer's
 * thinking and tool calls back into an OpenAI message in the family's own tool-call format. With `return_token_ids` (vLLM ≥ 0.10.2) the answer carries `prompt_token_ids`
 * and each choice its `token_ids`. Not streamed. The tokenizer remembers the stretches between
 * added tokens (as the gateway's does), standing in for a server's fast native tokenizer.
 */
export function createChatCompletionsProtocol(family: ModelFamilyAdapter): WireProtocol {
  const served: ModelFamilyAdapter = {
    ...family,
    tokenizer: createSegmentCachedTokenizer(family.tokenizer),
  };
  return {
    parse(body) {
      const request = parseChatCompletionRequest(body);
      if (request.stream) {
        throw new z.ZodError([
          {
            code: "custom",
            path: ["stream"],
            message: "the simulator answers chat completions whole: send stream: false",
            input: request.stream,
          },
        ]);
      }
      const tools = toToolSpecs(request.tools);
      const text = served.renderPrompt(
        request.messages.map((message, i) => toChatMessage(message, i)),
        { tools, enableThinking: request.chat_template_kwargs?.enable_thinking ?? true },
      );
      return {
        promptIds: served.tokenizer.encode(text),
        maxTokens: request.max_completion_tokens ?? request.max_tokens ?? DEFAULT_MAX_TOKENS,
        seed: request.seed ?? null,
        stopTokenIds: served.stopTokenIds,
        wantsLogprobs: false,
        chat: {
          knownTools: tools.map((tool) => tool.name),
          parseToolCalls: request.tool_choice !== "none",
          returnTokenIds: (body as { return_token_ids?: unknown }).return_token_ids === true,
        },
      };
    },
    format(outcome, context, call) {
      const chat = call?.chat;
      const answer = toOpenAiAnswer(served, outcome.outputIds, {
        finishReason: outcome.finishReason,
        parseToolCalls: chat?.parseToolCalls ?? true,
        knownTools: chat?.knownTools ?? [],
      });
      const ids = chat?.returnTokenIds === true;
      return {
        id: `chatcmpl-${context.requestId}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: context.model,
        choices: [
          {
            index: 0,
            message: answer.message,
            finish_reason: answer.finishReason,
            logprobs: null,
            ...(ids && { token_ids: outcome.outputIds }),
          },
        ],
        ...(ids && { prompt_token_ids: call?.promptIds }),
        usage: openAiUsage(outcome),
      };
    },
  };
}
