import type { GenerateResult, SamplingParams, TopLogprob, WeightVersionSpan } from "@raas/engine";

/** What one request of a generation produced (the whole of it, or the part before an interrupt). */
export interface GenerationPiece {
  responseIds: number[];
  logprobs: number[];
  /** Present when the request asked for top-k logprobs. */
  topLogprobs?: TopLogprob[][];
  finishReason: string | null;
  backendId: string;
  weightVersion: string | null;
  cachedPromptTokens: number | null;
  latencyMs: number;
}

/**
 * Whether tokens handed over by an interrupted request already end the generation: the token
 * budget is used up, or the last token is a stop token (its finish chunk had not arrived yet).
 * Continuing such a response would sample past its end.
 */
export function finishReasonOfPartial(
  responseIds: readonly number[],
  sampling: Pick<SamplingParams, "maxTokens" | "stopTokenIds">,
): "stop" | "length" | null {
  const last = responseIds.at(-1);
  if (last !== undefined && sampling.stopTokenIds?.includes(last)) return "stop";
  if (responseIds.length >= sampling.maxTokens) return "length";
  return null;
}

/**
 * One result from the pieces of a generation continued after `abort-and-continue` pauses: the
 * tokens and logprobs in order, the finishing piece's backend, version and finish reason, the
 * first piece's cached prompt count (the turn's own prompt), latencies summed. `weightVersionSpans`
 * is set only when the tokens came from more than one version (adjacent pieces of one version merge).
 */
export function mergeGenerationPieces(pieces: readonly GenerationPiece[], pausedMs: number): GenerateResult {
  const last = pieces.at(-1);
  const first = pieces[0];
  if (!last || !first) throw new Error("a generation has at least one piece");
  const responseIds: number[] = [];
  const logprobs: number[] = [];
  const topLogprobs: TopLogprob[][] = [];
  const spans: WeightVersionSpan[] = [];
  for (const piece of pieces) {
    if (piece.responseIds.length === 0) continue;
    const start = responseIds.length;
    responseIds.push(...piece.responseIds);
    logprobs.push(...piece.logprobs);
    if (piece.topLogprobs) topLogprobs.push(...piece.topLogprobs);
    const previous = spans.at(-1);
    if (previous && previous.weightVersion === piece.weightVersion) previous.end = responseIds.length;
    else spans.push({ start, end: responseIds.length, weightVersion: piece.weightVersion });
  }
  return {
    responseIds,
    logprobs,
    ...(pieces.some((piece) => piece.topLogprobs !== undefined) && { topLogprobs }),
    finishReason: last.finishReason,
    backendId: last.backendId,
    weightVersion: last.weightVersion,
    ...(spans.length > 1 && { weightVersionSpans: spans }),
    cachedPromptTokens: first.cachedPromptTokens,
    latencyMs: pieces.reduce((sum, piece) => sum + piece.latencyMs, 0),
    ...(pausedMs > 0 && { pausedMs }),
  };
}
