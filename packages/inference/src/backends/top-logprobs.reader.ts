import type { TopLogprob } from "@raas/engine";
import type { ResponseReader } from "./response-fields";

const TOKEN_ID_KEY = /^token_id:(\d+)$/;

/**
 * vLLM `/v1/completions` `logprobs.top_logprobs`: one `{ "token_id:<n>": logprob }` object per
 * response token (`return_tokens_as_token_ids`). vLLM adds the sampled token when it is not among
 * the top k, so an entry may hold k + 1 alternatives; they are returned most likely first.
 */
export function readVllmTopLogprobs(read: ResponseReader, value: unknown, tokens: number): TopLogprob[][] {
  const path = "choices[0].logprobs.top_logprobs";
  if (value == null) read.fail(path, "is missing (sent logprobs: k)");
  const entries = read.array(value, path);
  if (entries.length !== tokens) read.fail(path, `has ${entries.length} entries for ${tokens} tokens`);
  return entries.map((entry, i) => {
    const alternatives = Object.entries(read.object(entry, `${path}[${i}]`)).map(([key, logprob]) => {
      const match = TOKEN_ID_KEY.exec(key);
      if (!match) read.fail(`${path}[${i}]`, `has key ${JSON.stringify(key)}, not token_id:<n>`);
      if (typeof logprob !== "number") read.fail(`${path}[${i}][${key}]`, "is not a logprob");
      return { tokenId: Number(match[1]), logprob };
    });
    return alternatives.sort((a, b) => b.logprob - a.logprob);
  });
}

/**
 * SGLang `/generate` `meta_info.output_top_logprobs`: per response token a list of
 * `[logprob, token_id, text?]`; `skip` drops leading entries that belong to the prompt, as for
 * `output_token_logprobs`.
 */
export function readSglangTopLogprobs(read: ResponseReader, value: unknown, tokens: number): TopLogprob[][] {
  const path = "meta_info.output_top_logprobs";
  if (value == null) read.fail(path, "is missing (sent top_logprobs_num)");
  const all = read.array(value, path);
  if (all.length < tokens) read.fail(path, `has ${all.length} entries for ${tokens} response tokens`);
  const skip = all.length - tokens;
  return all.slice(skip).map((entry, i) => {
    const at = `${path}[${skip + i}]`;
    return read.array(entry, at).map((item, j) => {
      const tuple = read.array(item, `${at}[${j}]`);
      const [logprob, tokenId] = tuple;
      if (typeof logprob !== "number") read.fail(`${at}[${j}][0]`, "is not a logprob");
      if (!Number.isInteger(tokenId) || (tokenId as number) < 0)
        read.fail(`${at}[${j}][1]`, "is not a token id");
      return { tokenId: tokenId as number, logprob };
    });
  });
}
