import { describeAlternatives } from "./token-alternatives";
import type { TTokenBlock } from "./token-blocks";
import { describeToken, weightVersionAt } from "./token-blocks";
import { describeText, type TTokenText } from "./token-text";
import type { TTokenStreamView } from "./trajectory-types";
import type { TTokenTexts } from "./use-token-texts";
import { versionAt } from "./weight-versions";

/** Tokens drawn per block before a "show all" button (a long observation would stall the page). */
const MAX_TOKENS_SHOWN = 1_500;

const BLOCK_LABELS: Record<TTokenBlock["kind"], string> = {
  prompt: "prompt",
  generated: "sampled by the model",
  observation: "observation and template (appended to the next prompt)",
};

export type TShownBlock = TTokenBlock & { shownEnd: number };

/** The blocks cut at `MAX_TOKENS_SHOWN` each (unless expanded), their drawn positions, and how many are hidden. */
export function shownBlocks(
  blocks: readonly TTokenBlock[],
  isExpanded: boolean,
): { shown: TShownBlock[]; positions: number[]; hidden: number } {
  const shown = blocks.map((block) => ({
    ...block,
    shownEnd: isExpanded ? block.end : Math.min(block.end, block.start + MAX_TOKENS_SHOWN),
  }));
  return {
    shown,
    positions: shown.flatMap((block) => range(block.start, block.shownEnd)),
    hidden: shown.reduce((sum, block) => sum + (block.end - block.shownEnd), 0),
  };
}

/**
 * A token's id, logprob, weight version and top-k alternatives (sampled tokens) and text, as the
 * readout and its tooltip say them; `textOf` names decoded ids.
 */
export function describeTokenAt(
  exported: TTokenStreamView,
  blocks: readonly TTokenBlock[],
  position: number,
  textOf: (id: number) => TTokenText | undefined,
): string {
  const block = blocks.find((candidate) => position >= candidate.start && position < candidate.end);
  const turn = exported.turns.find((candidate) => candidate.index === block?.turnIndex);
  const isSampled = exported.lossMask[position] === 1;
  const head = describeToken({
    position,
    id: exported.tokens[position] ?? -1,
    isSampled,
    logprob: exported.logprobs[position] ?? null,
    ...(isSampled && turn ? { weightVersion: weightVersionAt(turn, position) } : {}),
    version: versionAt(exported, position),
  });
  const parts = [
    head,
    describeText(textOf(exported.tokens[position] ?? -1)),
    describeAlternatives(exported, position, textOf),
  ];
  return parts.filter((part) => part !== undefined).join(" · ");
}

/** The position an arrow, Home or End key moves the selection to; null for other keys. */
export function nextPosition(
  key: string,
  positions: readonly number[],
  selected: number | null,
): number | null {
  if (positions.length === 0) return null;
  const at = selected === null ? -1 : positions.indexOf(selected);
  if (key === "ArrowRight") return positions[Math.min(positions.length - 1, at + 1)] ?? null;
  if (key === "ArrowLeft") return positions[Math.max(0, at - 1)] ?? null;
  if (key === "Home") return positions[0] ?? null;
  if (key === "End") return positions.at(-1) ?? null;
  return null;
}

/** A note on the token texts while they are not all shown (loading, or failed: ids shown). */
export function textStateOf(showsIds: boolean, texts: TTokenTexts): string | null {
  if (showsIds) return null;
  if (texts.error !== null) return `Token text unavailable (${texts.error}); showing ids.`;
  return texts.isLoading ? "Decoding tokens…" : null;
}

/** What the blocks hold, e.g. "12 prompt · 40 sampled by the model". */
export function summarizeBlocks(blocks: readonly TTokenBlock[]): string {
  return `${blocks.map((block) => `${block.end - block.start} ${BLOCK_LABELS[block.kind]}`).join(" · ")}`;
}

export function range(start: number, end: number): number[] {
  return Array.from({ length: Math.max(0, end - start) }, (_, offset) => start + offset);
}
