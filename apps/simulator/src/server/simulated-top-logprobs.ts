/**
 * The top-k alternatives the simulator reports for a sampled token (vLLM `logprobs: k`, SGLang
 * `top_logprobs_num: k`): the sampled token with its own logprob, and k - 1 made-up neighbours
 * (the next ids) sharing the remaining probability mass in halves — deterministic, so the same
 * generation always reports the same alternatives. Most likely first, as the servers list them.
 */
function simulatedTopLogprobs(
  id: number,
  logprob: number,
  k: number,
): { tokenId: number; logprob: number }[] {
  // The rest of the mass, kept above 0 so that no alternative's logprob is -Infinity.
  const rest = Math.max(1 - Math.exp(logprob), 1e-6);
  const alternatives = [{ tokenId: id, logprob }];
  for (let j = 1; j < k; j += 1) {
    alternatives.push({ tokenId: id + j, logprob: Math.log(rest / 2 ** j) });
  }
  return alternatives.sort((a, b) => b.logprob - a.logprob);
}

/** vLLM's per-token `{ "token_id:<n>": logprob }` objects (`return_tokens_as_token_ids`). */
export function vllmTopLogprobs(
  ids: readonly number[],
  logprobs: readonly number[],
  k: number,
): Record<string, number>[] {
  return ids.map((id, i) =>
    Object.fromEntries(
      simulatedTopLogprobs(id, logprobs[i] as number, k).map((alt) => [
        `token_id:${alt.tokenId}`,
        alt.logprob,
      ]),
    ),
  );
}

/** SGLang's per-token `[logprob, token_id, null]` lists (`meta_info.output_top_logprobs`). */
export function sglangTopLogprobs(
  ids: readonly number[],
  logprobs: readonly number[],
  k: number,
): [number, number, null][][] {
  return ids.map((id, i) =>
    simulatedTopLogprobs(id, logprobs[i] as number, k).map((alt): [number, number, null] => [
      alt.logprob,
      alt.tokenId,
      null,
    ]),
  );
}
