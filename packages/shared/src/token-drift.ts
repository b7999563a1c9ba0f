import type { TTurn } from "./trajectory.schema";

// The token-in/token-out invariant, checked over turns as any package holds them: the handlers
// check their agent loop's turns with it, tests and the inference adapters check stored ones.
// It lives here, below every adapter, so that no adapter imports another for it.

/** What the drift check needs of a tokenizer: decoding ids to text (to spot a re-tokenization). */
export interface TokenDecoder {
  decode(ids: readonly number[]): string;
}

export type DriftViolation =
  | { kind: "missing-turn"; turnIndex: number; message: string }
  | { kind: "job-mismatch"; turnIndex: number; message: string }
  | { kind: "logprob-count"; turnIndex: number; message: string }
  | {
      kind: "prefix-mismatch";
      turnIndex: number;
      /** First position where the prompt differs from the previous prompt + response. */
      position: number;
      expectedId: number | null;
      actualId: number | null;
      /** True when both decode to the same text: the earlier turns were re-tokenized. */
      isRetokenization: boolean | null;
      message: string;
    };

/** What the drift check reads of a turn: a stored `TTurn` or an agent loop's in-memory turn. */
export type DriftCheckTurn = Pick<TTurn, "index" | "promptIds" | "responseIds" | "logprobs"> & {
  jobId?: string;
};

export interface DriftReport {
  isConsistent: boolean;
  turnsChecked: number;
  violations: DriftViolation[];
}

/**
 * Verifies the token-in/token-out property over a stored trajectory: every turn's prompt starts
 * with the previous turn's prompt ids followed by its response ids, turn indices are contiguous,
 * and each response has one logprob per token (when logprobs were recorded at all). Pass a
 * tokenizer to learn whether a mismatch is a re-tokenization (same text, different ids).
 */
export function checkTokenDrift(
  turns: readonly DriftCheckTurn[],
  options: { tokenizer?: TokenDecoder } = {},
): DriftReport {
  const violations: DriftViolation[] = [];
  const sorted = [...turns].sort((a, b) => a.index - b.index);
  sorted.forEach((turn, i) => {
    if (turn.logprobs.length > 0 && turn.logprobs.length !== turn.responseIds.length) {
      violations.push({
        kind: "logprob-count",
        turnIndex: turn.index,
        message: `turn ${turn.index}: ${turn.logprobs.length} logprobs for ${turn.responseIds.length} response tokens`,
      });
    }
    const previous = sorted[i - 1];
    if (!previous) return;
    if (turn.jobId !== previous.jobId) {
      violations.push({
        kind: "job-mismatch",
        turnIndex: turn.index,
        message: `turn ${turn.index} belongs to job ${turn.jobId}, turn ${previous.index} to ${previous.jobId}`,
      });
    }
    if (turn.index !== previous.index + 1) {
      violations.push({
        kind: "missing-turn",
        turnIndex: turn.index,
        message: `turn ${turn.index} follows turn ${previous.index}: turns in between are missing`,
      });
      return;
    }
    const expected = [...previous.promptIds, ...previous.responseIds];
    const position = firstDifference(expected, turn.promptIds);
    if (position === -1) return;
    const expectedId = expected[position] ?? null;
    const actualId = turn.promptIds[position] ?? null;
    let isRetokenization: boolean | null = null;
    if (options.tokenizer) {
      const actualPrefix = options.tokenizer
        .decode(turn.promptIds)
        .slice(0, options.tokenizer.decode(expected).length);
      isRetokenization = actualPrefix === options.tokenizer.decode(expected);
    }
    violations.push({
      kind: "prefix-mismatch",
      turnIndex: turn.index,
      position,
      expectedId,
      actualId,
      isRetokenization,
      message:
        `turn ${turn.index}: prompt differs from turn ${previous.index}'s prompt + response at token ${position} ` +
        `(expected ${expectedId ?? "end of prompt"}, found ${actualId ?? "end of prompt"})` +
        (isRetokenization ? "; same text, different ids: earlier turns were re-tokenized" : ""),
    });
  });
  return { isConsistent: violations.length === 0, turnsChecked: sorted.length, violations };
}

/** Index of the first position where `actual` does not extend `expected`; -1 when it does. */
function firstDifference(expected: readonly number[], actual: readonly number[]): number {
  for (let i = 0; i < expected.length; i += 1) {
    if (i >= actual.length || expected[i] !== actual[i]) return i;
  }
  return -1;
}
