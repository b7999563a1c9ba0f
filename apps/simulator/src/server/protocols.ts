import { z } from "zod";
import type { GenerationCall, GenerationOutcome, TokenChunk } from "../engine/simulated-model";
import { simulatedPromptLogprobs, vllmPromptLogprobs } from "./simulated-prompt-logprobs";
import { sglangTopLogprobs, vllmTopLogprobs } from "./simulated-top-logprobs";

interface FormatContext {
  model: string;
  requestId: string;
  latencyMs: number;
}

/** A wire protocol: how a request body becomes a generation call and an outcome becomes a response body. */
export interface WireProtocol {
  /** Parses a request body; throws a ZodError naming the bad field. */
  parse(body: unknown): Omit<GenerationCall, "signal" | "onTokens"> & {
    wantsLogprobs: boolean;
    /** Alternatives asked for per sampled token (vLLM `logprobs` > 0, SGLang `top_logprobs_num`). */
    topLogprobs?: number;
    /** The prompt tokens' logprobs were asked for (vLLM `prompt_logprobs`, SGLang `logprob_start_len: 0`). */
    wantsPromptLogprobs?: boolean;
    /** The client asked for a server-sent event stream (`stream: true`). */
    wantsStream?: boolean;
    /** The stream ends with a usage chunk (`stream_options.include_usage`). */
    wantsUsage?: boolean;
    /** Chat completions only: how the answer is written back as an OpenAI message. */
    chat?: { knownTools: readonly string[]; parseToolCalls: boolean; returnTokenIds: boolean };
  };
  /** The response body; `call` is what `parse` made of the request. */
  format(
    outcome: GenerationOutcome,
    context: FormatContext,
    call?: ReturnType<WireProtocol["parse"]>,
  ): unknown;
  /** The protocol's streamed form, when it has one: one event per token chunk, then the finish and usage. */
  stream?: {
    chunk(chunk: TokenChunk, context: FormatContext, call?: ReturnType<WireProtocol["parse"]>): unknown;
    finish(outcome: GenerationOutcome, context: FormatContext): unknown;
    usage(outcome: GenerationOutcome, context: FormatContext): unknown;
  };
}

/** OpenAI's `usage`, with vLLM's cached prompt tokens. */
export function openAiUsage(outcome: GenerationOutcome) {
  return {
    prompt_tokens: outcome.promptTokens,
    completion_tokens: outcome.outputIds.length,
    total_tokens: outcome.promptTokens + outcome.outputIds.length,
    prompt_tokens_details: { cached_tokens: outcome.cachedTokens },
  };
}

/** Prompts run to tens of thousands of ids: a plain loop, since per-item zod checks cost ms per request. */
const ZTokenIds = z.custom<number[]>(
  (value) =>
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((id) => Number.isInteger(id) && (id as number) >= 0),
  "must be a non-empty array of non-negative integer token ids",
);
const optionalInt = z.number().int().nullish();

const ZVllmRequest = z.object({
  model: z.string().optional(),
  prompt: z.union([ZTokenIds, z.array(ZTokenIds).length(1)]),
  max_tokens: z.number().int().positive().default(16),
  seed: optionalInt,
  stop_token_ids: z.array(z.number().int()).nullish(),
  logprobs: z.number().int().nonnegative().nullish(),
  prompt_logprobs: z.number().int().min(-1).nullish(),
  return_token_ids: z.boolean().optional(),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  top_k: z.number().int().optional(),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
});

/** One streamed `text_completion` chunk as vLLM writes it (`token_ids` with `return_token_ids`). */
function vllmChunk(
  context: FormatContext,
  choice: {
    text: string;
    ids: number[];
    logprobs: number[];
    finishReason: string | null;
    stopReason: number | null;
  },
  topLogprobs = 0,
) {
  return {
    id: `cmpl-${context.requestId}`,
    object: "text_completion",
    created: Math.floor(Date.now() / 1000),
    model: context.model,
    choices: [
      {
        index: 0,
        text: choice.text,
        logprobs: {
          tokens: choice.ids.map((id) => `token_id:${id}`),
          token_logprobs: choice.logprobs,
          top_logprobs: topLogprobs > 0 ? vllmTopLogprobs(choice.ids, choice.logprobs, topLogprobs) : null,
          text_offset: [],
        },
        finish_reason: choice.finishReason,
        stop_reason: choice.stopReason,
        prompt_token_ids: null,
        token_ids: choice.ids,
      },
    ],
  };
}

/** vLLM OpenAI-compatible `/v1/completions` with a token-id prompt (vLLM ≥ 0.10.2 field placement). */
export const vllmCompletionsProtocol: WireProtocol = {
  parse(body) {
    const request = ZVllmRequest.parse(body);
    const prompt = (Array.isArray(request.prompt[0]) ? request.prompt[0] : request.prompt) as number[];
    return {
      promptIds: prompt,
      maxTokens: request.max_tokens,
      seed: request.seed ?? null,
      stopTokenIds: request.stop_token_ids ?? [],
      wantsLogprobs: request.logprobs != null,
      ...(request.logprobs ? { topLogprobs: request.logprobs } : {}),
      ...(request.prompt_logprobs != null && { wantsPromptLogprobs: true }),
      wantsStream: request.stream === true,
      wantsUsage: request.stream_options?.include_usage === true,
    };
  },
  stream: {
    chunk: (chunk, context, call) =>
      vllmChunk(context, { ...chunk, finishReason: null, stopReason: null }, call?.topLogprobs),
    finish: (outcome, context) =>
      vllmChunk(context, {
        text: "",
        ids: [],
        logprobs: [],
        finishReason: outcome.finishReason,
        stopReason: outcome.matchedStopId,
      }),
    usage: (outcome, context) => ({
      id: `cmpl-${context.requestId}`,
      object: "text_completion",
      created: Math.floor(Date.now() / 1000),
      model: context.model,
      choices: [],
      usage: openAiUsage(outcome),
    }),
  },
  format(outcome, context, call) {
    const k = call?.topLogprobs ?? 0;
    return {
      id: `cmpl-${context.requestId}`,
      object: "text_completion",
      created: Math.floor(Date.now() / 1000),
      model: context.model,
      choices: [
        {
          index: 0,
          text: outcome.text,
          logprobs: {
            tokens: outcome.outputIds.map((id) => `token_id:${id}`),
            token_logprobs: outcome.logprobs,
            top_logprobs: k > 0 ? vllmTopLogprobs(outcome.outputIds, outcome.logprobs, k) : null,
            text_offset: [],
          },
          finish_reason: outcome.finishReason,
          stop_reason: outcome.matchedStopId,
          prompt_token_ids: null,
          token_ids: outcome.outputIds,
          ...(call?.wantsPromptLogprobs && { prompt_logprobs: vllmPromptLogprobs(call.promptIds) }),
        },
      ],
      usage: openAiUsage(outcome),
    };
  },
};

const ZSglangRequest = z.object({
  input_ids: ZTokenIds,
  sampling_params: z
    .object({
      max_new_tokens: z.number().int().nonnegative().default(128),
      stop_token_ids: z.array(z.number().int()).nullish(),
      sampling_seed: optionalInt,
      temperature: z.number().optional(),
      top_p: z.number().optional(),
      top_k: z.number().int().optional(),
    })
    .default({ max_new_tokens: 128 }),
  return_logprob: z.boolean().default(false),
  top_logprobs_num: z.number().int().nonnegative().nullish(),
  logprob_start_len: z.number().int().nullish(),
});

/** SGLang native `/generate` with `input_ids`. */
export const sglangGenerateProtocol: WireProtocol = {
  parse(body) {
    const request = ZSglangRequest.parse(body);
    return {
      promptIds: request.input_ids,
      maxTokens: request.sampling_params.max_new_tokens,
      seed: request.sampling_params.sampling_seed ?? null,
      stopTokenIds: request.sampling_params.stop_token_ids ?? [],
      wantsLogprobs: request.return_logprob,
      ...(request.return_logprob && request.top_logprobs_num
        ? { topLogprobs: request.top_logprobs_num }
        : {}),
      ...(request.return_logprob && request.logprob_start_len === 0 && { wantsPromptLogprobs: true }),
    };
  },
  format(outcome, context, call) {
    const k = call?.topLogprobs ?? 0;
    const finish =
      outcome.finishReason === "stop"
        ? { type: "stop", matched: outcome.matchedStopId }
        : { type: "length", length: outcome.outputIds.length };
    return {
      text: outcome.text,
      output_ids: outcome.outputIds,
      meta_info: {
        id: context.requestId,
        finish_reason: finish,
        prompt_tokens: outcome.promptTokens,
        completion_tokens: outcome.outputIds.length,
        cached_tokens: outcome.cachedTokens,
        output_token_logprobs: outcome.outputIds.map((id, i) => [outcome.logprobs[i], id, null]),
        ...(k > 0 && { output_top_logprobs: sglangTopLogprobs(outcome.outputIds, outcome.logprobs, k) }),
        ...(call?.wantsPromptLogprobs && {
          input_token_logprobs: simulatedPromptLogprobs(call.promptIds).map((logprob, i) => [
            logprob,
            call.promptIds[i],
            null,
          ]),
        }),
        e2e_latency: context.latencyMs / 1000,
      },
    };
  },
};

const ZNemoRequest = z.object({
  prompt_ids: ZTokenIds,
  max_tokens: z.number().int().positive().default(128),
  seed: optionalInt,
  stop_token_ids: z.array(z.number().int()).nullish(),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
});

/** NeMo-RL's `/generate` (as ProRL Agent calls it): `prompt_ids` in, `response_ids` + `logprobs` out. */
export const nemoGenerateProtocol: WireProtocol = {
  parse(body) {
    const request = ZNemoRequest.parse(body);
    return {
      promptIds: request.prompt_ids,
      maxTokens: request.max_tokens,
      seed: request.seed ?? null,
      stopTokenIds: request.stop_token_ids ?? [],
      wantsLogprobs: true,
    };
  },
  format(outcome) {
    return {
      response_ids: outcome.outputIds,
      logprobs: outcome.logprobs,
      finish_reason: outcome.finishReason,
      cached_tokens: outcome.cachedTokens,
    };
  },
};
