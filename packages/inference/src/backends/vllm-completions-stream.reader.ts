import type { TopLogprob } from "@raas/engine";
import type { BackendGeneration, StreamReader } from "./inference-backend.types";
import { ResponseReader } from "./response-fields";
import { readVllmTopLogprobs } from "./top-logprobs.reader";

const TOKEN_ID_TEXT = /^token_id:(\d+)$/;
const NOTHING = { ids: [], logprobs: [] } as const;

/**
 * Collects a streamed vLLM `/v1/completions` answer (`stream: true`): each chunk carries the new
 * token ids in `choices[0].token_ids` (vLLM >= 0.10.2 with `return_token_ids`; else
 * `logprobs.tokens` as `token_id:<n>`) and their `logprobs.token_logprobs`; the last one a
 * `finish_reason`; with `stream_options.include_usage` a final chunk without choices carries
 * `usage` (cached prompt tokens when the server reports prompt-token details). With
 * `isReadingTopLogprobs` (the request sent `logprobs: k`), each chunk's `logprobs.top_logprobs`
 * are collected too.
 */
export class VllmStreamReader implements StreamReader {
  private readonly read: ResponseReader;
  private readonly responseIds: number[] = [];
  private readonly logprobs: number[] = [];
  private finishReason: string | null = null;
  private cachedPromptTokens: number | null = null;
  private readonly topLogprobs: TopLogprob[][] | null;
  private chunks = 0;

  constructor(backendId: string | null, isReadingTopLogprobs = false) {
    this.read = new ResponseReader("vLLM /v1/completions stream", backendId);
    this.topLogprobs = isReadingTopLogprobs ? [] : null;
  }

  push(data: string): { ids: readonly number[]; logprobs: readonly number[] } {
    const index = this.chunks;
    this.chunks += 1;
    let body: unknown;
    try {
      body = JSON.parse(data);
    } catch {
      this.read.fail(`chunk ${index}`, "is not JSON");
    }
    // One chunk per token: the usual one (token ids with their logprobs) is taken without the
    // field-by-field reading below, which names the exact field of anything else.
    const usual = this.topLogprobs === null ? usualTokenChunk(body) : null;
    if (usual) {
      this.responseIds.push(...usual.ids);
      this.logprobs.push(...usual.logprobs);
      if (usual.finishReason !== null) this.finishReason = usual.finishReason;
      return { ids: usual.ids, logprobs: usual.logprobs };
    }
    return this.readChunk(body, `chunk ${index}`);
  }

  private readChunk(body: unknown, path: string): { ids: readonly number[]; logprobs: readonly number[] } {
    const root = this.read.object(body, path);
    if (root.error != null) {
      const error = root.error as { message?: unknown };
      this.read.fail(path, `reports an error: ${String(error.message ?? JSON.stringify(root.error))}`);
    }
    if (root.usage != null) {
      const usage = this.read.object(root.usage, `${path}.usage`);
      if (usage.prompt_tokens_details != null) {
        const details = this.read.object(usage.prompt_tokens_details, `${path}.usage.prompt_tokens_details`);
        this.cachedPromptTokens = this.read.optionalCount(
          details.cached_tokens,
          `${path}.usage.prompt_tokens_details.cached_tokens`,
        );
      }
    }
    const choices = root.choices == null ? [] : this.read.array(root.choices, `${path}.choices`);
    if (choices.length === 0) return NOTHING;
    const choice = this.read.object(choices[0], `${path}.choices[0]`);
    const logprobsObject =
      choice.logprobs == null ? null : this.read.object(choice.logprobs, `${path}.choices[0].logprobs`);
    let ids: number[];
    if (choice.token_ids != null) {
      ids = this.read.tokenIds(choice.token_ids, `${path}.choices[0].token_ids`);
    } else if (
      Array.isArray(logprobsObject?.tokens) &&
      logprobsObject.tokens.every((t) => TOKEN_ID_TEXT.test(String(t)))
    ) {
      ids = logprobsObject.tokens.map((t) => Number(TOKEN_ID_TEXT.exec(String(t))?.[1]));
    } else {
      this.read.fail(
        `${path}.choices[0].token_ids`,
        "is missing (send return_token_ids: true; needs vLLM >= 0.10.2)",
      );
    }
    if (ids.length > 0) {
      if (!logprobsObject) this.read.fail(`${path}.choices[0].logprobs`, "is missing (send logprobs: 0)");
      const logprobs = this.read.numbers(
        logprobsObject.token_logprobs,
        `${path}.choices[0].logprobs.token_logprobs`,
      );
      if (logprobs.length !== ids.length) {
        this.read.fail(
          `${path}.choices[0].logprobs.token_logprobs`,
          `has ${logprobs.length} entries for ${ids.length} tokens`,
        );
      }
      if (this.topLogprobs !== null) {
        this.topLogprobs.push(...readVllmTopLogprobs(this.read, logprobsObject.top_logprobs, ids.length));
      }
      this.responseIds.push(...ids);
      this.logprobs.push(...logprobs);
      if (typeof choice.finish_reason === "string") this.finishReason = choice.finish_reason;
      return { ids, logprobs };
    }
    if (typeof choice.finish_reason === "string") this.finishReason = choice.finish_reason;
    return NOTHING;
  }

  finish(outcome: { isInterrupted: boolean }): BackendGeneration {
    const isFinished = this.finishReason !== null;
    if (!isFinished && !outcome.isInterrupted) this.read.fail("stream", "ended without a finish_reason");
    return {
      responseIds: this.responseIds,
      logprobs: this.logprobs,
      finishReason: this.finishReason,
      cachedPromptTokens: this.cachedPromptTokens,
      ...(this.topLogprobs !== null && { topLogprobs: this.topLogprobs }),
      ...(!isFinished && { isInterrupted: true }),
    };
  }
}

const isTokenId = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;

/**
 * A chunk of the usual shape — no error or usage, one choice with at least one token id in
 * `token_ids` and a number logprob for each — read as it is; null for anything else.
 */
function usualTokenChunk(
  body: unknown,
): { ids: number[]; logprobs: number[]; finishReason: string | null } | null {
  if (typeof body !== "object" || body === null) return null;
  const root = body as Record<string, unknown>;
  if (root.error != null || root.usage != null || !Array.isArray(root.choices)) return null;
  const choice = root.choices[0] as Record<string, unknown> | undefined;
  if (typeof choice !== "object" || choice === null) return null;
  const ids = choice.token_ids;
  const logprobs = (choice.logprobs as { token_logprobs?: unknown } | null | undefined)?.token_logprobs;
  if (!Array.isArray(ids) || ids.length === 0 || !Array.isArray(logprobs)) return null;
  if (logprobs.length !== ids.length || !ids.every(isTokenId)) return null;
  if (!logprobs.every((logprob) => typeof logprob === "number")) return null;
  const finishReason = typeof choice.finish_reason === "string" ? choice.finish_reason : null;
  return { ids, logprobs, finishReason };
}
