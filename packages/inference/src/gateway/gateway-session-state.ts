import type { GatewayCallStore } from "@raas/engine";
import type { TChatCompletion, TChatCompletionRequest, TGatewayCallRecord } from "@raas/shared";
import type { BaseCall } from "./call-base";
import type { SessionCall } from "./gateway-prompt";
import { messageKey, toToolSpecs } from "./openai-messages";

/** An earlier call as the session keeps it: what the prompt builder, the call base and `previous_response_id` need. */
type KeptCall = SessionCall &
  BaseCall & {
    /** The assistant message the gateway answered with (as recorded). */
    answer: unknown;
  };

export interface SessionState {
  calls: KeptCall[];
  nextSeq: number;
}

/**
 * A job's state built from the calls already stored (recorded before a restart, or by another
 * process): the numbering continues after them, so none is overwritten, and the next call
 * continues their chains token-in/token-out as it would have in the process that recorded them
 * (calls recorded without their thinking flag are not continued: their next prompt is rendered
 * afresh).
 */
export async function loadSessionState(calls: GatewayCallStore, jobId: string): Promise<SessionState> {
  const stored = await calls.listCalls(jobId);
  return {
    calls: stored.flatMap((record) => (record.enableThinking === undefined ? [] : [sessionCallOf(record)])),
    nextSeq: stored.reduce((next, record) => Math.max(next, record.seq + 1), 0),
  };
}

/**
 * What the prompt builder needs of a recorded call to continue its chain; `keys` when the prompt
 * builder already worked them out for the call's request.
 */
export function sessionCallOf(
  record: TGatewayCallRecord,
  keys?: { messageKeys: readonly string[]; toolsKey: string },
): KeptCall {
  const messages = record.messages as TChatCompletionRequest["messages"];
  const answer = record.answer as TChatCompletion["choices"][0]["message"];
  return {
    id: record.id,
    messageKeys: keys?.messageKeys ?? messages.map((message, i) => messageKey(message, i)),
    answerKey: messageKey(answer, messages.length),
    toolCallIds: (answer.tool_calls ?? []).map((call) => call.id),
    toolsKey: keys?.toolsKey ?? JSON.stringify(toToolSpecs(record.tools as TChatCompletionRequest["tools"])),
    enableThinking: record.enableThinking ?? true,
    promptIds: record.promptIds,
    responseIds: record.responseIds,
    seq: record.seq,
    messages: record.messages,
    tools: record.tools,
    answer: record.answer,
  };
}
