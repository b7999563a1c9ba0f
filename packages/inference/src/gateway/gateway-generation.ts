import type { InferencePool, SamplingParams } from "@raas/engine";
import { requestFailure, type TChatCompletionRequest } from "@raas/shared";
import { isInferenceFailure } from "../inference-failure";
import type { ModelFamilyAdapter } from "../model/model-family.types";
import { type AnswerDelta, AnswerStream } from "./answer-stream";
import { type GeneratedAnswer, type PreparedCall, stopStringsOf } from "./gateway-call";
import { cutAtStopStrings, toOpenAiAnswer } from "./openai-answer";

/** What a streamed answer starts with (the fields every `chat.completion.chunk` repeats, and more). */
interface CompletionHead {
  id: string;
  created: number;
  model: string;
  /** The recorded call's id (other API shapes name their answers after it). */
  callId: string;
  promptTokens: number;
}

/** How one completion is carried out. */
export interface CompleteOptions {
  /** Aborts the generation (the harness went away). */
  signal?: AbortSignal;
  /**
   * Streams the answer: `onStart` once the request is accepted and generation begins (errors
   * before it are the request's own), then `onDelta` with reasoning and content as the tokens
   * arrive; the returned completion carries the tool calls, finish reason and usage.
   */
  stream?: { onStart(head: CompletionHead): void; onDelta(delta: AnswerDelta): void };
  /** How the ids of the answer's tool calls begin (`toolu_` for Anthropic's shape). Default `call_`. */
  toolCallIdPrefix?: string;
  /** The harness's `User-Agent` header, kept on the call's record. */
  userAgent?: string;
}

/** Generates the call (streaming the answer when asked), cuts it at the stop strings, parses it. */
export async function generateAnswer(input: {
  pool: InferencePool;
  family: ModelFamilyAdapter;
  modelName: string;
  jobId: string;
  request: TChatCompletionRequest;
  call: PreparedCall;
  options: CompleteOptions & { callId: string; startedAtMs: number };
}): Promise<GeneratedAnswer> {
  const { family, request, call } = input;
  const { signal, stream, callId, startedAtMs, toolCallIdPrefix } = input.options;
  const stops = stopStringsOf(request);
  const answerStream = stream ? new AnswerStream(family.tokenizer, { stops }) : null;
  stream?.onStart({
    id: `chatcmpl-${callId}`,
    created: Math.floor(startedAtMs / 1000),
    model: input.modelName,
    callId,
    promptTokens: call.prompt.promptIds.length,
  });
  // The generation's span on the same monotonic clock as the call's entry (the pool's `latencyMs`
  // is on its wall clock, in whole ms: too coarse to subtract from a sub-ms total).
  const generationStartedAt = performance.now();
  const generated = await generate(input.pool, {
    jobId: input.jobId,
    promptIds: call.prompt.promptIds,
    sampling: call.sampling,
    signal,
    onTokens: answerStream && stream ? (ids) => answerStream.push(ids).forEach(stream.onDelta) : undefined,
  });
  const generationMs = performance.now() - generationStartedAt;
  const cut = cutAtStopStrings(family.tokenizer, generated.responseIds, generated.logprobs, stops);
  const finishReason = cut.isCut ? "stop" : generated.finishReason;
  const answer = toOpenAiAnswer(family, cut.responseIds, {
    finishReason,
    parseToolCalls: request.tool_choice !== "none",
    knownTools: call.tools.map((tool) => tool.name),
    ...(toolCallIdPrefix && { toolCallIdPrefix }),
    stops,
  });
  if (answerStream && stream) answerStream.finish(answer.message).forEach(stream.onDelta);
  return { generated, generationMs, cut, finishReason, answer };
}

/** One generation through the pool; a backend's failure is the request's 503. */
async function generate(
  pool: InferencePool,
  request: {
    jobId: string;
    promptIds: number[];
    sampling: SamplingParams;
    signal: AbortSignal | undefined;
    onTokens: ((ids: readonly number[]) => void) | undefined;
  },
) {
  const { signal, onTokens, ...rest } = request;
  try {
    return await pool.generate({ ...rest, ...(signal && { signal }), ...(onTokens && { onTokens }) });
  } catch (error) {
    if (signal?.aborted) throw error;
    if (isInferenceFailure(error)) {
      throw requestFailure("UNAVAILABLE", `generation failed: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
