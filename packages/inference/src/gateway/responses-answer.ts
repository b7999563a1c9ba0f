import type {
  TChatCompletion,
  TOpenAiAssistantMessage,
  TResponsesOutputItem,
  TResponsesRequest,
  TResponsesResponse,
} from "@raas/shared";

const RESPONSE_ID_PREFIX = "resp_";

/** The response id of a recorded call (what `previous_response_id` names later). */
function responseIdOf(callId: string): string {
  return `${RESPONSE_ID_PREFIX}${callId}`;
}

/** The recorded call a response id names; null when it names none of the gateway's. */
export function callIdOfResponse(responseId: string): string | null {
  return responseId.startsWith(RESPONSE_ID_PREFIX) ? responseId.slice(RESPONSE_ID_PREFIX.length) : null;
}

/** The ids of a call's output items: stable, so a stream's items and the final response agree. */
export function outputItemIds(callId: string) {
  return {
    reasoning: `rs_${callId}`,
    message: `msg_${callId}`,
    functionCall: (index: number) => `fc_${callId}_${index}`,
  };
}

/** An assistant answer as output items: reasoning, then a message, then each function call. */
function toResponsesOutput(message: TOpenAiAssistantMessage, callId: string): TResponsesOutputItem[] {
  const ids = outputItemIds(callId);
  const output: TResponsesOutputItem[] = [];
  if (message.reasoning_content) {
    output.push({
      id: ids.reasoning,
      type: "reasoning",
      summary: [],
      content: [{ type: "reasoning_text", text: message.reasoning_content }],
    });
  }
  if (message.content) {
    output.push({
      id: ids.message,
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: message.content, annotations: [] }],
    });
  }
  (message.tool_calls ?? []).forEach((call, index) => {
    output.push({
      id: ids.functionCall(index),
      type: "function_call",
      status: "completed",
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    });
  });
  return output;
}

/** The response object around `output`: what the request asked, the status, usage. */
export function toResponsesResponse(input: {
  callId: string;
  request: TResponsesRequest;
  model: string;
  createdAtSec: number;
  completion: TChatCompletion | null;
}): TResponsesResponse {
  const { callId, request, completion } = input;
  const isCut = completion?.choices[0].finish_reason === "length";
  return {
    id: responseIdOf(callId),
    object: "response",
    created_at: input.createdAtSec,
    status: completion === null ? "in_progress" : isCut ? "incomplete" : "completed",
    incomplete_details: isCut ? { reason: "max_output_tokens" } : null,
    error: null,
    model: input.model,
    instructions: request.instructions ?? null,
    previous_response_id: request.previous_response_id ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    output: completion === null ? [] : toResponsesOutput(completion.choices[0].message, callId),
    parallel_tool_calls: (request as { parallel_tool_calls?: boolean }).parallel_tool_calls ?? true,
    tool_choice: request.tool_choice ?? "auto",
    tools: request.tools ?? [],
    usage:
      completion === null
        ? null
        : {
            input_tokens: completion.usage.prompt_tokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: completion.usage.completion_tokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: completion.usage.total_tokens,
          },
  };
}
