import type { BackendCodec } from "./inference-backend.types";
import { ResponseReader } from "./response-fields";

/**
 * SGLang's native `/generate` with `input_ids`. Ids and logprobs come from
 * `meta_info.output_token_logprobs` (`[logprob, token_id, text]` per token); `output_ids`, when
 * present, must agree.
 */
export const sglangGenerateCodec: BackendCodec = {
  kind: "sglang",
  path: "/generate",
  buildRequest(request) {
    const { sampling } = request;
    return {
      input_ids: request.promptIds,
      sampling_params: {
        max_new_tokens: sampling.maxTokens,
        temperature: sampling.temperature ?? 1,
        top_p: sampling.topP ?? 1,
        ...(sampling.topK === undefined ? {} : { top_k: sampling.topK }),
        ...(sampling.seed === undefined ? {} : { sampling_seed: sampling.seed }),
        ...(sampling.stopTokenIds === undefined ? {} : { stop_token_ids: sampling.stopTokenIds }),
        skip_special_tokens: false,
      },
      return_logprob: true,
      stream: false,
    };
  },
  parseResponse(body, backendId) {
    const read = new ResponseReader("SGLang /generate", backendId);
    const root = read.object(Array.isArray(body) ? body[0] : body, "body");
    const meta = read.object(root.meta_info, "meta_info");
    const entries = read.array(meta.output_token_logprobs, "meta_info.output_token_logprobs");
    const logprobs: number[] = [];
    const idsFromLogprobs: number[] = [];
    entries.forEach((entry, i) => {
      const path = `meta_info.output_token_logprobs[${i}]`;
      const tuple = read.array(entry, path);
      if (typeof tuple[0] !== "number") read.fail(`${path}[0]`, "is not a logprob");
      if (!Number.isInteger(tuple[1])) read.fail(`${path}[1]`, "is not a token id");
      logprobs.push(tuple[0] as number);
      idsFromLogprobs.push(tuple[1] as number);
    });
    let responseIds = idsFromLogprobs;
    if (root.output_ids != null) {
      responseIds = read.tokenIds(root.output_ids, "output_ids");
      if (responseIds.length !== logprobs.length) {
        read.fail(
          "meta_info.output_token_logprobs",
          `has ${logprobs.length} entries for ${responseIds.length} output_ids`,
        );
      }
    }
    const finish = meta.finish_reason;
    const finishReason =
      typeof finish === "string"
        ? finish
        : typeof finish === "object" &&
            finish !== null &&
            typeof (finish as { type?: unknown }).type === "string"
          ? (finish as { type: string }).type
          : null;
    return {
      responseIds,
      logprobs,
      finishReason,
      cachedPromptTokens: read.optionalCount(meta.cached_tokens, "meta_info.cached_tokens"),
    };
  },
};
