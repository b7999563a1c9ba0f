import type { TChatCompletion, TGatewayApi, TGatewayExchange } from "@raas/shared";

/**
 * The API shape a call came in: how its answer is put in that shape, and what of the exchange its
 * record keeps. Chat completions is the shape the gateway records in; the others map onto it.
 */
export interface CallFace<TAnswer> {
  api: TGatewayApi;
  /** What the harness sent, as the record keeps it (`ZGatewayExchange.request`); absent for chat. */
  request?: unknown;
  /** The answer in this shape, from the chat completion and the recorded call's id. */
  answer(completion: TChatCompletion, callId: string): TAnswer;
  /** The answer as the record keeps it (`ZGatewayExchange.response`); absent when `answer` of the record is it. */
  recorded?(answer: TAnswer): unknown;
}

export const CHAT_FACE: CallFace<TChatCompletion> = {
  api: "chat.completions",
  answer: (completion) => completion,
};

/** The record's exchange for a call answered with `answer` through `face`. */
export function exchangeOf<TAnswer>(
  face: CallFace<TAnswer>,
  answer: TAnswer,
  userAgent: string | undefined,
): TGatewayExchange {
  return {
    api: face.api,
    userAgent: userAgent ?? null,
    ...(face.request !== undefined && { request: face.request }),
    ...(face.recorded && { response: face.recorded(answer) }),
  };
}
