import { DEFAULT_MIN_P, DEFAULT_TEMPERATURE, DEFAULT_TOP_K, DEFAULT_TOP_P } from "@raas/engine";
import type { BackendCodec, BackendGenerateRequest } from "./inference-backend.types";
import { ResponseReader } from "./response-fields";
import { readVllmTopLogprobs } from "./top-logprobs.reader";
import { VllmStreamReader } from "./vllm-completions-stream.reader";

const TOKEN_ID_TEXT = /^token_id:(\d+)$/;

/**
 * vLLM's OpenAI-compatible `/v1/completions` with a token-id prompt. Response token ids are read
 * from `choices[0].token_ids` (vLLM ≥ 0.10.2 with `return_token_ids`), falling back to
 * `output_token_ids` and to `logprobs.tokens` written as `token_id:<n>`.
 */
export const vllmCompletionsCodec: BackendCodec = {
  kind: "vllm",
  path: "/v1/completions",
  buildRequest: buildVllmRequest,
  streaming: {
    buildRequest: (request, model) => ({
      ...buildVllmRequest(request, model),
      stream: true,
      stream_options: { include_usage: true },
    }),
    createReader: (backendId, request) =>
      new VllmStreamReader(backendId, request.sampling.topLogprobs !== undefined),
  },
  parseResponse(body, backendId, request) {
    const read = new ResponseReader("vLLM /v1/completions", backendId);
    const root = read.object(body, "body");
    const choices = read.array(root.choices, "choices");
    if (choices.length === 0) read.fail("choices", "is empty");
    const choice = read.object(choices[0], "choices[0]");
    const logprobsObject =
      choice.logprobs == null ? null : read.object(choice.logprobs, "choices[0].logprobs");
    let responseIds: number[];
    if (choice.token_ids !== undefined && choice.token_ids !== null) {
      responseIds = read.tokenIds(choice.token_ids, "choices[0].token_ids");
    } else if (choice.output_token_ids != null) {
      responseIds = read.tokenIds(choice.output_token_ids, "choices[0].output_token_ids");
    } else if (
      Array.isArray(logprobsObject?.tokens) &&
      logprobsObject.tokens.every((t) => TOKEN_ID_TEXT.test(String(t)))
    ) {
      responseIds = logprobsObject.tokens.map((t) => Number(TOKEN_ID_TEXT.exec(String(t))?.[1]));
    } else {
      return read.fail(
        "choices[0].token_ids",
        "is missing (send return_token_ids: true; needs vLLM >= 0.10.2)",
      );
    }
    if (!logprobsObject) return read.fail("choices[0].logprobs", "is missing (send logprobs: 0)");
    const logprobs = read.numbers(logprobsObject.token_logprobs, "choices[0].logprobs.token_logprobs");
    if (logprobs.length !== responseIds.length) {
      read.fail(
        "choices[0].logprobs.token_logprobs",
        `has ${logprobs.length} entries for ${responseIds.length} tokens`,
      );
    }
    const usage = root.usage == null ? null : read.object(root.usage, "usage");
    const details =
      usage?.prompt_tokens_details == null
        ? null
        : read.object(usage.prompt_tokens_details, "usage.prompt_tokens_details");
    const topK = request?.sampling.topLogprobs;
    return {
      responseIds,
      logprobs,
      ...(topK === undefined
        ? {}
        : { topLogprobs: readVllmTopLogprobs(read, logprobsObject.top_logprobs, responseIds.length) }),
      finishReason: typeof choice.finish_reason === "string" ? choice.finish_reason : null,
      cachedPromptTokens: read.optionalCount(
        details?.cached_tokens,
        "usage.prompt_tokens_details.cached_tokens",
      ),
    };
  },
};

function buildVllmRequest(request: BackendGenerateRequest, model: string): Record<string, unknown> {
  const { sampling } = request;
  return {
    model,
    prompt: request.promptIds,
    max_tokens: sampling.maxTokens,
    temperature: sampling.temperature ?? DEFAULT_TEMPERATURE,
    top_p: sampling.topP ?? DEFAULT_TOP_P,
    top_k: sampling.topK ?? DEFAULT_TOP_K,
    min_p: DEFAULT_MIN_P,
    ...(sampling.seed === undefined ? {} : { seed: sampling.seed }),
    ...(sampling.stopTokenIds === undefined ? {} : { stop_token_ids: sampling.stopTokenIds }),
    logprobs: sampling.topLogprobs ?? 0,
    return_token_ids: true,
    return_tokens_as_token_ids: true,
    skip_special_tokens: false,
    include_stop_str_in_output: true,
  };
}
