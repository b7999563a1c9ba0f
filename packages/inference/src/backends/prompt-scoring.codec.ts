import { ResponseReader } from "./response-fields";

/**
 * Scoring a token sequence on a backend (a teacher, for on-policy distillation): the request that
 * asks for the logprob of every prompt token given the ones before it, and the reading of the
 * answer — one entry per prompt id, null for the first (nothing precedes it). The one token the
 * request must generate is ignored.
 */
export interface ScoringCodec {
  path: string;
  buildRequest(promptIds: readonly number[], model: string): unknown;
  parseResponse(body: unknown, backendId: string | null, promptIds: readonly number[]): (number | null)[];
}

/**
 * vLLM `/v1/completions` with `prompt_logprobs`: `choices[0].prompt_logprobs` holds, per prompt
 * token, null (the first) or an object keyed by token id (`"1234"`, or `"token_id:1234"` under
 * `return_tokens_as_token_ids`) of `{ logprob, rank, decoded_token }` — the prompt's own token
 * among the top alternatives asked for. `max_tokens: 1` (vLLM refuses 0); `prompt_logprobs: 1`
 * is accepted by every release that has the field (0 is not by older ones).
 */
export const vllmPromptScoringCodec: ScoringCodec = {
  path: "/v1/completions",
  buildRequest: (promptIds, model) => ({
    model,
    prompt: promptIds,
    max_tokens: 1,
    temperature: 0,
    prompt_logprobs: 1,
    return_tokens_as_token_ids: true,
    skip_special_tokens: false,
  }),
  parseResponse(body, backendId, promptIds) {
    const read: ResponseReader = new ResponseReader("vLLM /v1/completions prompt_logprobs", backendId);
    const root = read.object(body, "body");
    const choices = read.array(root.choices, "choices");
    const choice = read.object(choices[0], "choices[0]");
    // Older releases put the field beside `choices`.
    const value = choice.prompt_logprobs ?? root.prompt_logprobs;
    const path = "choices[0].prompt_logprobs";
    const entries = read.array(value, path);
    checkLength(read, path, entries.length, promptIds.length);
    return entries.map((entry, i): number | null => {
      if (i === 0) return null;
      const at = `${path}[${i}]`;
      const alternatives = read.object(entry, at);
      const id = promptIds[i] as number;
      const own = alternatives[String(id)] ?? alternatives[`token_id:${id}`];
      if (own === undefined) read.fail(at, `has no entry for the prompt's token ${id}`);
      const logprob = typeof own === "number" ? own : read.object(own, `${at}[${id}]`).logprob;
      if (typeof logprob !== "number") read.fail(`${at}[${id}].logprob`, "is not a number");
      return logprob;
    });
  },
};

/**
 * SGLang `/generate` with `return_logprob`, `logprob_start_len: 0` and `max_new_tokens: 0`:
 * `meta_info.input_token_logprobs` is `[logprob, token_id, text?]` per prompt token, the first
 * logprob null.
 */
export const sglangPromptScoringCodec: ScoringCodec = {
  path: "/generate",
  buildRequest: (promptIds) => ({
    input_ids: promptIds,
    sampling_params: { max_new_tokens: 0, temperature: 0 },
    return_logprob: true,
    logprob_start_len: 0,
    stream: false,
  }),
  parseResponse(body, backendId, promptIds) {
    const read: ResponseReader = new ResponseReader("SGLang /generate input_token_logprobs", backendId);
    const root = read.object(Array.isArray(body) ? body[0] : body, "body");
    const meta = read.object(root.meta_info, "meta_info");
    const path = "meta_info.input_token_logprobs";
    const entries = read.array(meta.input_token_logprobs, path);
    checkLength(read, path, entries.length, promptIds.length);
    return entries.map((entry, i): number | null => {
      const at = `${path}[${i}]`;
      const [logprob, tokenId] = read.array(entry, at);
      if (tokenId !== undefined && tokenId !== null && tokenId !== promptIds[i]) {
        read.fail(`${at}[1]`, `is token ${String(tokenId)}, not the prompt's ${promptIds[i]}`);
      }
      if (i === 0) return null;
      if (typeof logprob !== "number") read.fail(`${at}[0]`, "is not a logprob");
      return logprob;
    });
  },
};

function checkLength(read: ResponseReader, path: string, entries: number, tokens: number): void {
  if (entries !== tokens) read.fail(path, `has ${entries} entries for ${tokens} prompt tokens`);
}
