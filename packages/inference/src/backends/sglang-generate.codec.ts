import { DEFAULT_MIN_P, DEFAULT_TEMPERATURE, DEFAULT_TOP_K, DEFAULT_TOP_P } from "@raas/engine";
import type { BackendCodec } from "./inference-backend.types";
import { ResponseReader } from "./response-fields";
import { readSglangTopLogprobs } from "./top-logprobs.reader";

/**
 * SGLang's native `/generate` with `input_ids`. Ids and logprobs come from
 * `meta_info.output_token_logprobs` (`[logprob, token_id, text?]` per token). Some releases start
 * `output_ids` with trailing prompt tokens (more ids than `meta_info.completion_tokens`), so
 * `output_ids` is only a fallback for ids the logprob entries do not carry: its last
 * `completion_tokens` ids.
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
        temperature: sampling.temperature ?? DEFAULT_TEMPERATURE,
        top_p: sampling.topP ?? DEFAULT_TOP_P,
        top_k: sampling.topK ?? DEFAULT_TOP_K,
        min_p: DEFAULT_MIN_P,
        ...(sampling.seed === undefined ? {} : { sampling_seed: sampling.seed }),
        ...(sampling.stopTokenIds === undefined ? {} : { stop_token_ids: sampling.stopTokenIds }),
        skip_special_tokens: false,
      },
      return_logprob: true,
      ...(sampling.topLogprobs === undefined ? {} : { top_logprobs_num: sampling.topLogprobs }),
      stream: false,
    };
  },
  parseResponse(body, backendId, request) {
    const read = new ResponseReader("SGLang /generate", backendId);
    const root = read.object(Array.isArray(body) ? body[0] : body, "body");
    const meta = read.object(root.meta_info, "meta_info");
    const completionTokens = read.optionalCount(meta.completion_tokens, "meta_info.completion_tokens");
    const entries = readLogprobEntries(read, meta.output_token_logprobs, completionTokens);
    const logprobs = entries.map((entry) => entry.logprob);
    let responseIds: number[];
    if (entries.every((entry) => entry.tokenId !== null)) {
      responseIds = entries.map((entry) => entry.tokenId as number);
      if (root.output_ids != null) {
        const tail = read.tokenIds(root.output_ids, "output_ids").slice(-responseIds.length);
        if (responseIds.length > 0 && tail.join() !== responseIds.join()) {
          read.fail("output_ids", "does not end with the token ids of meta_info.output_token_logprobs");
        }
      }
    } else {
      const count =
        completionTokens ??
        read.fail("meta_info.completion_tokens", "is missing (needed to find the response in output_ids)");
      const outputIds = read.tokenIds(root.output_ids, "output_ids");
      if (outputIds.length < count) {
        read.fail("output_ids", `has ${outputIds.length} ids for ${count} completion_tokens`);
      }
      responseIds = outputIds.slice(outputIds.length - count);
    }
    if (logprobs.length !== responseIds.length) {
      read.fail(
        "meta_info.output_token_logprobs",
        `has ${logprobs.length} entries for ${responseIds.length} response tokens`,
      );
    }
    const topK = request?.sampling.topLogprobs;
    return {
      responseIds,
      logprobs,
      ...(topK === undefined
        ? {}
        : { topLogprobs: readSglangTopLogprobs(read, meta.output_top_logprobs, responseIds.length) }),
      finishReason: finishReasonOf(meta.finish_reason),
      cachedPromptTokens: read.optionalCount(meta.cached_tokens, "meta_info.cached_tokens"),
    };
  },
};

/** `[logprob, token_id, text?]` entries; when there are more than `completionTokens`, the last ones. */
function readLogprobEntries(
  read: ResponseReader,
  value: unknown,
  completionTokens: number | null,
): { logprob: number; tokenId: number | null }[] {
  if (value == null) read.fail("meta_info.output_token_logprobs", "is missing (send return_logprob: true)");
  const all = read.array(value, "meta_info.output_token_logprobs");
  const skip = completionTokens !== null && all.length > completionTokens ? all.length - completionTokens : 0;
  return all.slice(skip).map((entry, i) => {
    const path = `meta_info.output_token_logprobs[${skip + i}]`;
    const tuple = read.array(entry, path);
    if (typeof tuple[0] !== "number") read.fail(`${path}[0]`, "is not a logprob");
    const id = tuple[1];
    if (id != null && (!Number.isInteger(id) || (id as number) < 0))
      read.fail(`${path}[1]`, "is not a token id");
    return { logprob: tuple[0], tokenId: id == null ? null : (id as number) };
  });
}

/** `finish_reason` is a string in older releases, `{ type, matched | length }` in newer ones. */
function finishReasonOf(finish: unknown): string | null {
  if (typeof finish === "string") return finish;
  if (
    typeof finish === "object" &&
    finish !== null &&
    typeof (finish as { type?: unknown }).type === "string"
  ) {
    return (finish as { type: string }).type;
  }
  return null;
}
