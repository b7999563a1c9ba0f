/**
 * The logprob the simulator reports for each prompt token given the tokens before it (vLLM
 * `prompt_logprobs`, SGLang `input_token_logprobs`), as a teacher scoring a trajectory: null for
 * the first token, else a value in [-4, -0.001] hashed from the token, the one before it and its
 * position. Deterministic, and a sequence's scores do not change when it is extended, as a causal
 * model's would not — so scoring a trajectory twice, or a prefix of it, agrees.
 */
export function simulatedPromptLogprobs(ids: readonly number[]): (number | null)[] {
  return ids.map((id, i) => {
    if (i === 0) return null;
    let hash = 2_166_136_261;
    for (const value of [ids[i - 1] as number, id, i]) {
      hash = Math.imul(hash ^ value, 16_777_619) >>> 0;
      hash = Math.imul(hash ^ (hash >>> 15), 2_246_822_519) >>> 0;
    }
    return -((hash % 4_000) + 1) / 1_000;
  });
}

/**
 * vLLM's `prompt_logprobs` entries: null, then per token an object keyed by token id holding the
 * prompt's own token and, when it is not the most likely, a made-up likelier neighbour (id + 1),
 * as vLLM adds the prompt token beside the top alternatives asked for.
 */
export function vllmPromptLogprobs(
  ids: readonly number[],
): (Record<string, { logprob: number; rank: number; decoded_token: string }> | null)[] {
  return simulatedPromptLogprobs(ids).map((logprob, i) => {
    if (logprob === null) return null;
    const id = ids[i] as number;
    const own = { logprob, rank: logprob > -1 ? 1 : 2, decoded_token: `token_id:${id}` };
    if (own.rank === 1) return { [String(id)]: own };
    return {
      [String(id + 1)]: { logprob: -0.5, rank: 1, decoded_token: `token_id:${id + 1}` },
      [String(id)]: own,
    };
  });
}
