import type { AgentLoopResult, ChatToolCall, TrajectoryRecorder } from "@raas/engine";
import type { TGatewayCallRecord } from "@raas/shared";

type AgentTurn = AgentLoopResult["turns"][number];

/** Stands in for the sampling of a call recorded without it (only calls stored before it was kept). */
const UNRECORDED_SAMPLING: AgentTurn["sampling"] = {
  temperature: 1,
  topP: 1,
  topK: null,
  seed: null,
  maxTokens: 0,
};

/**
 * Each gateway call is stored as a turn (the job store keeps the ids; the trajectory page shows
 * them). Interleaved sub-agents do not form one stream: read `jobs.gatewayTraces` for the chains
 * and their certificate.
 */
export function recordCallsAsTurns(recorder: TrajectoryRecorder, calls: readonly TGatewayCallRecord[]): void {
  for (const call of calls) {
    recorder.turn({
      index: call.seq,
      promptIds: call.promptIds,
      responseIds: call.responseIds,
      logprobs: call.logprobs,
      ...(call.topLogprobs && { topLogprobs: call.topLogprobs }),
      backendId: call.backendId,
      weightVersion: call.weightVersion,
      weightVersionSpans: null,
      cachedPromptTokens: call.cachedPromptTokens,
      latencyMs: call.latencyMs,
      finishReason: call.finishReason,
      text: null,
      sampling: call.sampling ?? null,
    });
  }
}

/**
 * The calls as the loop's turns, for a kind's `collect` (e.g. the turns a verifier attaches
 * rewards to): the answer's visible content and tool calls, as the harness received them.
 */
export function callsAsAgentTurns(calls: readonly TGatewayCallRecord[]): AgentTurn[] {
  return calls.map((call) => {
    const answer = asRecord(call.answer);
    return {
      index: call.seq,
      promptIds: call.promptIds,
      responseIds: call.responseIds,
      logprobs: call.logprobs,
      ...(call.topLogprobs && { topLogprobs: call.topLogprobs }),
      backendId: call.backendId ?? "",
      weightVersion: call.weightVersion,
      weightVersionSpans: null,
      cachedPromptTokens: call.cachedPromptTokens,
      latencyMs: call.latencyMs,
      finishReason: call.finishReason,
      text: "",
      sampling: call.sampling ?? UNRECORDED_SAMPLING,
      thinking: typeof answer.reasoning_content === "string" ? answer.reasoning_content : null,
      content: typeof answer.content === "string" ? answer.content : "",
      toolCalls: toolCallsOf(answer.tool_calls),
    };
  });
}

/** OpenAI-style `tool_calls` (`function.arguments` a JSON string) as the loop's tool calls. */
function toolCallsOf(value: unknown): ChatToolCall[] {
  if (!Array.isArray(value)) return [];
  return value.map((entry) => {
    const fn = asRecord(asRecord(entry).function);
    return {
      name: typeof fn.name === "string" ? fn.name : "",
      arguments: parseArguments(fn.arguments),
    };
  });
}

function parseArguments(value: unknown): Record<string, unknown> {
  if (typeof value !== "string") return asRecord(value);
  try {
    return asRecord(JSON.parse(value));
  } catch {
    return {};
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
