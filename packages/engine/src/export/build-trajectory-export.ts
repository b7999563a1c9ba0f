import type {
  TJob,
  TTeacherScore,
  TTokenBreak,
  TToolCall,
  TTrajectoryExport,
  TTurn,
  TTurnSpan,
  TWeightVersionSpan,
} from "@raas/shared";
import { exportTurnRewards } from "./exported-turn-rewards";
import { exportTeacher } from "./teacher-export";
import { findTokenBreak } from "./token-break";
import { tokenVersions } from "./token-versions";

/** One sampled position's alternatives. */
type TTopLogprobs = NonNullable<TTurn["topLogprobs"]>[number];

/**
 * A job's stored turns as one flat token stream with a loss mask and aligned logprobs (pure).
 *
 * The stream is the first turn's prompt, then per turn its sampled ids (mask 1, logprob kept)
 * followed by the ids the next prompt appended after them (observations and chat template: mask
 * 0, logprob null). This is exact only because every prompt extends the previous prompt +
 * response (token-in/token-out); each turn is checked, and at the first turn that breaks the
 * property the stream stops (before that turn) and `tokenBreak` says where — a broken trajectory
 * is never presented as exact. The integer weight version per token comes from the same spans
 * the turns export (-1 off the sampled tokens). Per-step rewards (the verifier's, the tools') are
 * aligned to the turns' spans. Top-k logprobs, when the job asked for them, align like logprobs
 * (null off the sampled tokens) and are left out when no turn has them. A teacher's logprobs
 * (on-policy distillation) align the same way (`teacher-export.ts`).
 */
export function buildTrajectoryExport(
  job: TJob,
  storedTurns: readonly TTurn[],
  toolCalls: readonly TToolCall[] = [],
  teacherScore: TTeacherScore | null = null,
): TTrajectoryExport {
  const turns = [...storedTurns].sort((a, b) => a.index - b.index);
  const tokens: number[] = [];
  const lossMask: (0 | 1)[] = [];
  const logprobs: (number | null)[] = [];
  const topLogprobs: (TTopLogprobs | null)[] = [];
  let hasTopLogprobs = false;
  const spans: TTurnSpan[] = [];
  let logprobsComplete = true;
  let tokenBreak: TTokenBreak | null = null;
  let previous: TTurn | null = null;

  for (const turn of turns) {
    tokenBreak = findTokenBreak(previous, turn);
    if (tokenBreak) break;
    // The ids this prompt adds after what the stream already holds (all of it for the first turn).
    for (let i = tokens.length; i < turn.promptIds.length; i += 1) {
      tokens.push(turn.promptIds[i] as number);
      lossMask.push(0);
      logprobs.push(null);
      topLogprobs.push(null);
    }
    const start = tokens.length;
    const hasLogprobs = turn.logprobs.length === turn.responseIds.length;
    if (!hasLogprobs && turn.responseIds.length > 0) logprobsComplete = false;
    const turnTop = turn.topLogprobs?.length === turn.responseIds.length ? turn.topLogprobs : null;
    if (turnTop && turnTop.length > 0) hasTopLogprobs = true;
    turn.responseIds.forEach((id, i) => {
      tokens.push(id);
      lossMask.push(1);
      logprobs.push(hasLogprobs ? (turn.logprobs[i] as number) : null);
      topLogprobs.push(turnTop?.[i] ?? null);
    });
    spans.push({
      index: turn.index,
      start,
      end: tokens.length,
      weightVersion: turn.weightVersion,
      weightVersionSpans: streamSpans(turn, start),
      backendId: turn.backendId,
      finishReason: turn.finishReason,
      cachedPromptTokens: turn.cachedPromptTokens,
      latencyMs: turn.latencyMs,
      sampling: turn.sampling ?? null,
    });
    previous = turn;
  }

  return {
    jobId: job.id,
    batchId: job.batchId,
    groupId: job.groupId,
    kind: job.kind,
    status: job.status,
    reward: job.reward,
    trainable: job.trainable,
    failureKind: job.failure?.kind ?? null,
    failureLabel: job.failure?.label ?? null,
    tokens,
    lossMask,
    logprobs,
    versions: tokenVersions(tokens.length, spans),
    ...(hasTopLogprobs && { topLogprobs }),
    ...exportTeacher(teacherScore, job, { tokens, lossMask, tokenExact: tokenBreak === null }),
    logprobsComplete,
    promptLength: turns[0]?.promptIds.length ?? 0,
    turns: spans,
    turnCount: turns.length,
    turnRewards: exportTurnRewards(job, toolCalls, spans),
    tokenExact: tokenBreak === null,
    tokenBreak,
    timings: job.timings,
    metadata: job.metadata,
  };
}

/** The turn's per-token weight versions as offsets into the flat stream (one span when uniform). */
function streamSpans(turn: TTurn, start: number): TWeightVersionSpan[] {
  if (turn.responseIds.length === 0) return [];
  const spans = turn.weightVersionSpans;
  if (!spans || spans.length === 0) {
    return [{ start, end: start + turn.responseIds.length, weightVersion: turn.weightVersion }];
  }
  return spans.map((span) => ({
    start: start + span.start,
    end: start + span.end,
    weightVersion: span.weightVersion,
  }));
}
