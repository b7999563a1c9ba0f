import {
  type TAnthropicMessage,
  ZAnthropicCountTokensRequest,
  ZAnthropicMessagesRequest,
} from "@raas/shared";
import { toAnthropicMessage } from "./anthropic-answer";
import { AnthropicEventStream } from "./anthropic-events";
import { toChatRequestFromAnthropic } from "./anthropic-request";
import type { FaceOptions } from "./face-options";
import type { InferenceGateway } from "./inference-gateway";

/** What of the gateway an Anthropic call goes through: the chat completion call path. */
type ChatCore = Pick<InferenceGateway, "completeCall" | "countPromptTokens">;

/**
 * `POST /v1/messages`: the request mapped onto a chat completion request, completed (and recorded)
 * as one, its answer mapped back to Anthropic's `message` (or streamed as Anthropic's events when
 * `onEvent` is given). Tool-use ids begin with `toolu_`, as Anthropic's do.
 */
export async function createAnthropicMessage(
  core: ChatCore,
  token: string,
  body: unknown,
  { signal, onEvent }: FaceOptions,
): Promise<TAnthropicMessage> {
  const request = ZAnthropicMessagesRequest.parse(body);
  const chat = toChatRequestFromAnthropic(request);
  const stops = request.stop_sequences ?? [];
  const events = onEvent ? new AnthropicEventStream() : null;
  const emit = (list: ReturnType<AnthropicEventStream["start"]>) => {
    for (const event of list) onEvent?.(event);
  };
  const { completion, callId } = await core.completeCall(token, chat, {
    ...(signal && { signal }),
    toolCallIdPrefix: "toolu_",
    ...(events && {
      stream: {
        onStart: (head) => emit(events.start(head)),
        onDelta: (delta) => emit(events.delta(delta)),
      },
    }),
  });
  const message = toAnthropicMessage(completion, callId, stops);
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
