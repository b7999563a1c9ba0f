import {
  requestFailure,
  type TOpenAiMessage,
  type TResponsesRequest,
  type TResponsesResponse,
  ZResponsesRequest,
} from "@raas/shared";
import type { CallFace } from "./call-face";
import { responsesRequestForRecord, responsesResponseForRecord } from "./face-exchange";
import type { FaceOptions } from "./face-options";
import type { InferenceGateway } from "./inference-gateway";
import { callIdOfResponse, toResponsesResponse } from "./responses-answer";
import { ResponsesEventStream } from "./responses-events";
import { type PreviousResponse, toChatRequestFromResponses } from "./responses-request";

/** What of the gateway a Responses call goes through: the chat completion call path and its records. */
type ChatCore = Pick<InferenceGateway, "completeFaceCall" | "findSessionCall" | "modelName">;

/**
 * `POST /v1/responses`: the request (after the previous response it names, looked up among the
 * session's own recorded calls) mapped onto a chat completion request, completed (and recorded)
 * as one, its answer mapped back to a response object (or streamed as Responses events when
 * `onEvent` is given). The response's id names the recorded call.
 */
export async function createOpenAiResponse(
  core: ChatCore,
  token: string,
  body: unknown,
  { signal, onEvent, userAgent }: FaceOptions,
): Promise<TResponsesResponse> {
  const request = ZResponsesRequest.parse(body);
  const previous = await findPrevious(core, token, request);
  const chat = toChatRequestFromResponses(request, previous);
  const events = onEvent ? new ResponsesEventStream() : null;
  const emit = (list: ReturnType<ResponsesEventStream["finish"]>) => {
    for (const event of list) onEvent?.(event);
  };
  const face: CallFace<TResponsesResponse> = {
    api: "openai.responses",
    request: responsesRequestForRecord(request),
    answer: (completion, callId) =>
      toResponsesResponse({
        callId,
        request,
        model: core.modelName,
        createdAtSec: completion.created,
        completion,
      }),
    recorded: responsesResponseForRecord,
  };
  const { answer: response } = await core.completeFaceCall(token, chat, face, {
    ...(signal && { signal }),
    ...(userAgent !== undefined && { userAgent }),
    ...(events && {
      stream: {
        onStart: (head) => {
          const response = toResponsesResponse({
            callId: head.callId,
            request,
            model: head.model,
            createdAtSec: head.created,
            completion: null,
          });
          emit(events.start(response, head.callId));
        },
        onDelta: (delta) => emit(events.delta(delta)),
      },
    }),
  });
  if (events) emit(events.finish(response));
  return response;
}

/** The recorded call `previous_response_id` names; a 400 when it names none of this session's. */
async function findPrevious(
  core: ChatCore,
  token: string,
  request: TResponsesRequest,
): Promise<PreviousResponse | null> {
  const responseId = request.previous_response_id;
  if (!responseId) return null;
  const callId = callIdOfResponse(responseId);
  const found = callId === null ? null : await core.findSessionCall(token, callId);
  if (!found) {
    throw requestFailure(
      "VALIDATION_FAILED",
      `previous_response_id ${JSON.stringify(responseId)} names no response of this session: send the whole conversation as input instead`,
    );
  }
  return { messages: found.messages as TOpenAiMessage[], answer: found.answer as TOpenAiMessage };
}
