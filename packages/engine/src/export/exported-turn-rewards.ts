import type { TExportedTurnReward, TJob, TToolCall, TTurnSpan } from "@raas/shared";

/**
 * A job's per-step rewards aligned to its exported turns (pure): the verifier's (stored on the
 * job) and the tool results' (stored on their tool calls), each with its turn's span of sampled
 * tokens in the flat stream. Ordered by turn, a verifier's before a tool's, tools by call. A
 * reward of a turn the stream does not hold (cut at a token break) keeps its turn with a null
 * span: it is never moved onto another turn's tokens.
 */
export function exportTurnRewards(
  job: Pick<TJob, "turnRewards">,
  toolCalls: readonly TToolCall[],
  spans: readonly TTurnSpan[],
): TExportedTurnReward[] {
  const spanOf = new Map(spans.map((span) => [span.index, span]));
  const tokensOf = (turn: number) => {
    const span = spanOf.get(turn);
    return span ? { start: span.start, end: span.end } : { start: null, end: null };
  };
  const fromVerifier = (job.turnRewards ?? []).map(
    (entry): TExportedTurnReward => ({
      turn: entry.turn,
      reward: entry.reward,
      source: "verifier",
      label: entry.label ?? null,
      toolCallIndex: null,
      ...tokensOf(entry.turn),
    }),
  );
  const fromTools = toolCalls.flatMap((call): TExportedTurnReward[] =>
    typeof call.reward === "number"
      ? [
          {
            turn: call.turnIndex,
            reward: call.reward,
            source: "tool",
            label: call.name,
            toolCallIndex: call.index,
            ...tokensOf(call.turnIndex),
          },
        ]
      : [],
  );
  const rank = (r: TExportedTurnReward) => (r.source === "verifier" ? -1 : (r.toolCallIndex ?? 0));
  // Array.prototype.sort is stable: a verifier's entries of one turn keep their given order.
  return [...fromVerifier, ...fromTools].sort((a, b) => a.turn - b.turn || rank(a) - rank(b));
}
