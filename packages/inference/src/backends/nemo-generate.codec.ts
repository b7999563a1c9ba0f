import { DEFAULT_TEMPERATURE, DEFAULT_TOP_K, DEFAULT_TOP_P } from "@raas/engine";
import type { BackendCodec, BackendGenerateRequest } from "./inference-backend.types";
import { ResponseReader } from "./response-fields";

/** NeMo-RL's `/generate` as ProRL Agent calls it: `prompt_ids` → `response_ids` + `logprobs`. */
export const nemoGenerateCodec: BackendCodec = {
  kind: "nemo-rl",
  path: "/generate",
  buildRequest(request) {
    const { sampling } = request;
    return {
      prompt_ids: request.promptIds,
      max_tokens: sampling.maxTokens,
      temperature: sampling.temperature ?? DEFAULT_TEMPERATURE,
      top_p: sampling.topP ?? DEFAULT_TOP_P,
      top_k: sampling.topK ?? DEFAULT_TOP_K,
      ...(sampling.seed === undefined ? {} : { seed: sampling.seed }),
      ...(sampling.stopTokenIds === undefined ? {} : { stop_token_ids: sampling.stopTokenIds }),
    };
  },
  parseResponse(body, backendId, request) {
    const read = new ResponseReader("NeMo-RL /generate", backendId);
    const root = read.object(body, "body");
    const responseIds = read.tokenIds(root.response_ids, "response_ids");
    const logprobs = read.numbers(root.logprobs, "logprobs");
    if (logprobs.length !== responseIds.length) {
      read.fail("logprobs", `has ${logprobs.length} entries for ${responseIds.length} response_ids`);
    }
    return {
      responseIds,
      logprobs,
      finishReason:
        typeof root.finish_reason === "string" ? root.finish_reason : inferFinishReason(responseIds, request),
      cachedPromptTokens: read.optionalCount(root.cached_tokens, "cached_tokens"),
    };
  },
};

/**
 * NeMo-RL's response carries no finish reason; it follows from the request: ending on one of the
 * request's stop tokens (the chat format's end-of-turn) is `stop`, reaching `maxTokens` is
 * `length`. Anything else (no request known, a stop the request did not name) stays unknown.
 */
function inferFinishReason(responseIds: readonly number[], request: BackendGenerateRequest | undefined) {
  if (!request) return null;
  const last = responseIds.at(-1);
  if (last !== undefined && request.sampling.stopTokenIds?.includes(last)) return "stop";
  if (responseIds.length >= request.sampling.maxTokens) return "length";
  return null;
}
