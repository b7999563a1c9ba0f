import {
  type TAnthropicMessage,
  ZAnthropicCountTokensRequest,
  ZAnthropicMessagesRequest,
} from "@raas/shared";
import { toAnthropicMessage } from "./anthropic-answer";
import { AnthropicEventStream } from "./anthropic-events";
import { toChatRequestFromAnthropic } from "./anthropic-request";
import type { CallFace } from "./call-face";
import { anthropicRequestForRecord } from "./face-exchange";
import type { FaceOptions } from "./face-options";
import type { InferenceGateway } from "./inference-gateway";

/** What of the gateway an Anthropic call goes through: the chat completion call path. */
type ChatCore = Pick<InferenceGateway, "completeFaceCall" | "countPromptTokens">;

/**
 * `POST /v1/messages`: the request mapped onto a chat completion request, completed (and recorded)
 * as one, its answer mapped back to Anthropic's `message` (or streamed as Anthropic's events when
 * `onEvent` is given). Tool-use ids begin with `toolu_`, as Anthropic's do.
 */
export async function createAnthropicMessage(
  core: ChatCore,
  token: string,
  body: unknown,
  { signal, onEvent, userAgent }: FaceOptions,
): Promise<TAnthropicMessage> {
  const request = ZAnthropicMessagesRequest.parse(body);
  const chat = toChatRequestFromAnthropic(request);
  const events = onEvent ? new AnthropicEventStream() : null;
  const emit = (list: ReturnType<AnthropicEventStream["start"]>) => {
    for (const event of list) onEvent?.(event);
  };
  const face: CallFace<TAnthropicMessage> = {
    api: "anthropic.messages",
    request: anthropicRequestForRecord(request),
    answer: (completion, callId) => toAnthropicMessage(completion, callId),
    recorded: (message) => message,
  };
  const { answer: message } = await core.completeFaceCall(token, chat, face, {
    ...(signal && { signal }),
    ...(userAgent !== undefined && { userAgent }),
    toolCallIdPrefix: "toolu_",
    ...(events && {
      stream: {
        onStart: (head) => emit(events.start(head)),
        onDelta: (delta) => emit(events.delta(delta)),
      },
    }),
  });
  if (events) emit(events.finish(message));
  return message;
}

/** `POST /v1/messages/count_tokens`: the prompt's length as the next call would render it. */
export async function countAnthropicTokens(
  core: ChatCore,
  token: string,
  body: unknown,
): Promise<{ input_tokens: number }> {
  const request = ZAnthropicCountTokensRequest.parse(body);
  return { input_tokens: await core.countPromptTokens(token, toChatRequestFromAnthropic(request)) };
}
