import type { ParsedChatResponse } from "../ports/chat-format.port";
import type { GenerateResult, SamplingParams } from "../ports/inference-pool.port";
import { describeSampling } from "../sampling/sampling-record";
import { asStageFailure } from "../stage-failure";
import type { AgentTurn } from "./agent-loop.types";
import type { AgentLoopState } from "./agent-loop-state";

/** A generated turn: the backend's answer, its parse, and the token cap it was generated under. */
export interface GeneratedTurn {
  generated: GenerateResult;
  parsed: ParsedChatResponse;
  maxTokens: number;
}

/**
 * Generates from the exact ids so far (a failure is `stageFailure('inference')`), moves the
 * deadline by the time generation was paused, and records the turn.
 */
export async function generateTurn(state: AgentLoopState, index: number): Promise<GeneratedTurn> {
  const { options, limits, signal, promptIds } = state;
  const { chatFormat } = options;
  const maxTokens = Math.min(limits.maxTokensPerTurn, limits.maxContextTokens - promptIds.length);
  const sampling: SamplingParams = {
    ...options.sampling,
    maxTokens,
    stopTokenIds: [...chatFormat.stopTokenIds],
  };
  const deadlineMs = state.deadlineMs;
  const generated = await asStageFailure("inference", "generation failed", signal, () =>
    options.inference.generate({ jobId: options.jobId, promptIds, sampling, signal, deadlineMs }),
  );
  state.deadlineMs += generated.pausedMs ?? 0;
  const parsed = chatFormat.parseResponse(generated.responseIds);
  const turn = recordTurn(options, index, promptIds, generated, parsed, {
    text: chatFormat.decode(generated.responseIds),
    sampling,
  });
  state.turns.push(turn);
  return { generated, parsed, maxTokens };
}

function recordTurn(
  options: AgentLoopState["options"],
  index: number,
  promptIds: number[],
  generated: GenerateResult,
  parsed: ParsedChatResponse,
  { text, sampling }: { text: string; sampling: SamplingParams },
): AgentTurn {
  const turn: AgentTurn = {
    index,
    promptIds,
    responseIds: [...generated.responseIds],
    logprobs: [...generated.logprobs],
    ...(generated.topLogprobs && { topLogprobs: generated.topLogprobs }),
    backendId: generated.backendId,
    weightVersion: generated.weightVersion,
    weightVersionSpans: generated.weightVersionSpans ?? null,
    // null = the backend did not say; kept unknown, never recorded as a 0 % cache hit.
    cachedPromptTokens: generated.cachedPromptTokens,
    latencyMs: generated.latencyMs,
    finishReason: generated.finishReason,
    text,
    sampling: describeSampling(sampling),
    thinking: parsed.thinking,
    content: parsed.content,
    toolCalls: parsed.toolCalls,
  };
  options.recorder?.turn({
    index,
    promptIds: turn.promptIds,
    responseIds: turn.responseIds,
    logprobs: turn.logprobs,
    ...(turn.topLogprobs && { topLogprobs: turn.topLogprobs }),
    backendId: turn.backendId,
    weightVersion: turn.weightVersion,
    weightVersionSpans: turn.weightVersionSpans,
    cachedPromptTokens: turn.cachedPromptTokens,
    latencyMs: turn.latencyMs,
    finishReason: turn.finishReason,
    text,
    sampling: turn.sampling,
  });
  return turn;
}
