import type { TGatewayCallRecord, TGatewayCallView } from "@raas/shared";

/**
 * A recorded call as the page lists it: in the API shape the harness spoke (the record keeps what
 * another shape sent and answered; a chat call's are its last messages and its answer), without
 * the prompt's ids and the history it repeats.
 */
export function toGatewayCallView(call: TGatewayCallRecord): TGatewayCallView {
  const exchange = call.exchange;
  const isChat = !exchange || exchange.api === "chat.completions";
  return {
    id: call.id,
    seq: call.seq,
    parentCallId: call.parentCallId,
    api: exchange?.api ?? "chat.completions",
    userAgent: exchange?.userAgent ?? null,
    promptTokens: call.promptIds.length,
    responseTokens: call.responseIds.length,
    finishReason: call.finishReason,
    backendId: call.backendId,
    weightVersion: call.weightVersion,
    latencyMs: call.latencyMs,
    overheadMs: call.overheadMs,
    cachedPromptTokens: call.cachedPromptTokens,
    createdAtMs: call.createdAtMs,
    ...(call.overriddenSampling && { overriddenSampling: call.overriddenSampling }),
    ...(call.toolChoiceViolation && { toolChoiceViolation: call.toolChoiceViolation }),
    sent: isChat ? { messages: afterLastAssistant(call.messages) } : exchange.request,
    answered: isChat ? call.answer : exchange.response,
  };
}

function afterLastAssistant(messages: readonly unknown[]): unknown[] {
  let last = -1;
  messages.forEach((message, at) => {
    if (
      typeof message === "object" &&
      message !== null &&
      "role" in message &&
      message.role === "assistant"
    ) {
      last = at;
    }
  });
  return messages.slice(last + 1);
}
