import type { TTokenBreak, TTurn } from "@raas/shared";

/** What the token check reads of a turn. */
export type TokenCheckTurn = Pick<TTurn, "index" | "promptIds" | "responseIds" | "logprobs">;

/**
 * Whether `turn` extends `previous` token-in/token-out: its index follows (0 for the first), its prompt begins with
 * the previous prompt ids followed by the previous response ids, and its logprobs (when it has
 * any) are one per sampled token. Returns the break, or null when `turn` is exact.
 */
export function findTokenBreak(previous: TokenCheckTurn | null, turn: TokenCheckTurn): TTokenBreak | null {
  const streamLength = previous ? previous.promptIds.length + previous.responseIds.length : 0;
  const expectedIndex = previous ? previous.index + 1 : 0;
  if (turn.index !== expectedIndex) {
    return {
      kind: "missing-turn",
      turnIndex: turn.index,
      position: streamLength,
      expectedId: null,
      actualId: null,
      message: previous
        ? `turn ${turn.index} follows turn ${previous.index}: the turns in between are missing`
        : `the first stored turn is turn ${turn.index}: the turns before it are missing`,
    };
  }
  if (previous) {
    const position = firstDifference(previous, turn.promptIds);
    if (position !== -1) {
      const expectedId = idAt(previous, position);
      const actualId = turn.promptIds[position] ?? null;
      return {
        kind: "prefix-mismatch",
        turnIndex: turn.index,
        position,
        expectedId,
        actualId,
        message:
          `turn ${turn.index}'s prompt differs from turn ${previous.index}'s prompt + response at token ${position} ` +
          `(expected ${expectedId}, found ${actualId ?? "the end of the prompt"}): the ids were not carried over exactly`,
      };
    }
  }
  if (turn.logprobs.length > 0 && turn.logprobs.length !== turn.responseIds.length) {
    return {
      kind: "logprob-count",
      turnIndex: turn.index,
      position: streamLength,
      expectedId: null,
      actualId: null,
      message: `turn ${turn.index} has ${turn.logprobs.length} logprobs for ${turn.responseIds.length} sampled tokens`,
    };
  }
  return null;
}

/** First position where `prompt` does not continue `previous.promptIds + previous.responseIds`; -1 if it does. */
function firstDifference(previous: TokenCheckTurn, prompt: readonly number[]): number {
  const { promptIds, responseIds } = previous;
  const length = promptIds.length + responseIds.length;
  for (let i = 0; i < length; i += 1) {
    if (i >= prompt.length || prompt[i] !== idAt(previous, i)) return i;
  }
  return -1;
}

function idAt(previous: TokenCheckTurn, position: number): number {
  const { promptIds, responseIds } = previous;
  return (
    position < promptIds.length ? promptIds[position] : responseIds[position - promptIds.length]
  ) as number;
}
