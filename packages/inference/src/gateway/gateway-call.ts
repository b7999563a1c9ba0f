import {
  describeSampling,
  describeSamplingConflicts,
  findSamplingConflicts,
  type GatewaySession,
  type GenerateResult,
  type SamplingConflict,
  type SamplingParams,
} from "@raas/engine";
import {
  requestFailure,
  type TChatCompletion,
  type TChatCompletionRequest,
  type TGatewayCallRecord,
  type TGatewayExchange,
  type TToolChoiceViolation,
} from "@raas/shared";
import type { SharedCall } from "./call-base";
import type { GatewayPrompt } from "./gateway-prompt";
import type { cutAtStopStrings, toOpenAiAnswer } from "./openai-answer";
import type { toToolSpecs } from "./openai-messages";
import type { readToolChoice } from "./tool-choice";

/** A call accepted for generation: its number, prompt and sampling. */
export interface PreparedCall {
  seq: number;
  prompt: GatewayPrompt;
  tools: ReturnType<typeof toToolSpecs>;
  enableThinking: boolean;
  requiredCall: ReturnType<typeof readToolChoice>;
  sampling: SamplingParams;
}

/** What generation gave, cut at the request's stop strings, as an OpenAI answer. */
export interface GeneratedAnswer {
  generated: GenerateResult;
  /** The generation's span on the same monotonic clock as the call's entry. */
  generationMs: number;
  cut: ReturnType<typeof cutAtStopStrings>;
  finishReason: string | null;
  answer: ReturnType<typeof toOpenAiAnswer>;
}

/**
 * The trainer owns the distribution: a harness's sampling fields are never sent to the backend;
 * a `reject` job refuses them (before the call takes a number), an `override` job records them.
 */
export function checkSamplingConflicts(
  request: TChatCompletionRequest,
  session: GatewaySession,
): SamplingConflict[] {
  const conflicts = findSamplingConflicts(request, session.sampling.settings);
  if (conflicts.length > 0 && session.sampling.mode === "reject") {
    throw requestFailure("VALIDATION_FAILED", describeSamplingConflicts(conflicts), {
      details: { fields: conflicts.map((conflict) => conflict.field) },
    });
  }
  return conflicts;
}

/** The request's `stop` as a list. */
export function stopStringsOf(request: TChatCompletionRequest): string[] {
  return request.stop === undefined ? [] : typeof request.stop === "string" ? [request.stop] : request.stop;
}

/** The stored record of one call; repeated messages and tools are shared with the parent's. */
export function buildGatewayCallRecord(input: {
  callId: string;
  jobId: string;
  request: TChatCompletionRequest;
  call: PreparedCall;
  answered: GeneratedAnswer;
  conflicts: readonly SamplingConflict[];
  shared: SharedCall | null | undefined;
  toolChoiceViolation: TToolChoiceViolation | null;
  exchange: TGatewayExchange;
  overheadMs: number;
  createdAtMs: number;
}): TGatewayCallRecord {
  const { request, call, answered, conflicts, shared } = input;
  const { generated, cut } = answered;
  return {
    id: input.callId,
    seq: call.seq,
    jobId: input.jobId,
    parentCallId: call.prompt.parentCallId,
    messages: shared ? shared.messages : request.messages,
    tools: shared ? shared.tools : (request.tools ?? []),
    answer: answered.answer.message,
    promptIds: call.prompt.promptIds,
    responseIds: cut.responseIds,
    logprobs: cut.logprobs,
    // Only what the job asked for, cut like the ids (a stop string keeps a prefix of them).
    ...(generated.topLogprobs && { topLogprobs: generated.topLogprobs.slice(0, cut.responseIds.length) }),
    finishReason: answered.finishReason,
    backendId: generated.backendId,
    weightVersion: generated.weightVersion,
    cachedPromptTokens: generated.cachedPromptTokens,
    enableThinking: call.enableThinking,
    latencyMs: generated.latencyMs,
    sampling: describeSampling(call.sampling),
    ...(conflicts.length > 0 && {
      overriddenSampling: Object.fromEntries(conflicts.map((conflict) => [conflict.field, conflict.value])),
    }),
    overheadMs: input.overheadMs,
    exchange: input.exchange,
    createdAtMs: input.createdAtMs,
    ...(input.toolChoiceViolation && { toolChoiceViolation: input.toolChoiceViolation }),
  };
}

export function toChatCompletion(
  callId: string,
  modelName: string,
  startedAtMs: number,
  call: PreparedCall,
  { answer, cut }: GeneratedAnswer,
): TChatCompletion {
  const promptTokens = call.prompt.promptIds.length;
  return {
    id: `chatcmpl-${callId}`,
    object: "chat.completion",
    created: Math.floor(startedAtMs / 1000),
    model: modelName,
    choices: [
      {
        index: 0,
        message: answer.message,
        finish_reason: answer.finishReason,
        stop_reason: answer.stopSequence,
        logprobs: null,
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: cut.responseIds.length,
      total_tokens: promptTokens + cut.responseIds.length,
    },
  };
}
