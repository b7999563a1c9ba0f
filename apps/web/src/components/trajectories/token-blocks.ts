import type { TTrajectoryExport, TTurnSpan } from "@raas/shared";
import { versionLabel } from "./weight-versions";

/** A run of the flat token stream: the task prompt, one turn's sampled tokens, or what came back after it. */
export interface TTokenBlock {
  kind: "prompt" | "generated" | "observation";
  /** The turn it belongs to (the prompt: null). */
  turnIndex: number | null;
  start: number;
  end: number;
}

/** How sure the model was of a sampled token, in four bands by probability; `none` without a logprob. */
export type TConfidence = "high" | "mid" | "low" | "vlow" | "none";

/**
 * The flat stream cut into blocks: the prompt, then per turn its sampled tokens and the observation
 * and template tokens the next prompt appended (to the next turn's start, or the end of the stream).
 */
export function tokenBlocks(
  exported: Pick<TTrajectoryExport, "promptLength" | "tokens"> & {
    turns: ReadonlyArray<Pick<TTurnSpan, "index" | "start" | "end">>;
  },
): TTokenBlock[] {
  const blocks: TTokenBlock[] = [];
  if (exported.promptLength > 0)
    blocks.push({ kind: "prompt", turnIndex: null, start: 0, end: exported.promptLength });
  exported.turns.forEach((turn, position) => {
    blocks.push({ kind: "generated", turnIndex: turn.index, start: turn.start, end: turn.end });
    const next = exported.turns[position + 1];
    const observationEnd = next ? next.start : exported.tokens.length;
    if (observationEnd > turn.end) {
      blocks.push({ kind: "observation", turnIndex: turn.index, start: turn.end, end: observationEnd });
    }
  });
  return blocks;
}

/** The confidence band of a logprob: p ≥ 0.9 high, ≥ 0.5 mid, ≥ 0.1 low, else very low. */
export function confidenceOf(logprob: number | null): TConfidence {
  if (logprob === null || !Number.isFinite(logprob)) return "none";
  const probability = Math.exp(logprob);
  if (probability >= 0.9) return "high";
  if (probability >= 0.5) return "mid";
  if (probability >= 0.1) return "low";
  return "vlow";
}

/** The weight version that sampled the token at `position` (an offset into `tokens`), or null. */
export function weightVersionAt(
  turn: Pick<TTurnSpan, "weightVersion" | "weightVersionSpans">,
  position: number,
): string | null {
  const span = turn.weightVersionSpans.find(
    (candidate) => position >= candidate.start && position < candidate.end,
  );
  return span ? span.weightVersion : turn.weightVersion;
}

/**
 * What hovering or selecting a token says: position, id, loss mask, logprob and probability, weight
 * version (and the integer version the export gives it, when known).
 */
export function describeToken(token: {
  position: number;
  id: number;
  isSampled: boolean;
  logprob: number | null;
  weightVersion?: string | null;
  version?: number | null;
}): string {
  const head = `token ${token.position} · id ${token.id}`;
  if (!token.isSampled) return `${head} · not trained on (loss mask 0)`;
  const logprob =
    token.logprob === null
      ? "no logprob"
      : `logprob ${token.logprob.toFixed(3)} (p ${(Math.exp(token.logprob) * 100).toFixed(1)} %)`;
  const weights = token.weightVersion === undefined ? "" : ` · weights ${token.weightVersion ?? "—"}`;
  const version = token.version == null ? "" : ` · version ${versionLabel(token.version)}`;
  return `${head} · sampled · ${logprob}${weights}${version}`;
}

/** A turn's text split into its `<think>…</think>` part and the rest (the answer or tool call). */
export function splitThinking(text: string | null): { thinking: string | null; answer: string } {
  if (text === null) return { thinking: null, answer: "" };
  const match = /<think>([\s\S]*?)(<\/think>|$)/.exec(text);
  if (!match) return { thinking: null, answer: text };
  const answer = (text.slice(0, match.index) + text.slice(match.index + match[0].length)).trim();
  return { thinking: (match[1] ?? "").trim(), answer };
}
