"use client";

import { type KeyboardEvent, type MouseEvent, useId, useState } from "react";
import type { TTokenBlock } from "./token-blocks";
import { confidenceOf, describeToken, weightVersionAt } from "./token-blocks";
import { describeText, visibleText } from "./token-text";
import styles from "./token-view.module.css";
import type { TTokenStreamView } from "./trajectory-types";
import { useTokenTexts } from "./use-token-texts";

/** Tokens drawn per block before a "show all" button (a long observation would stall the page). */
export const MAX_TOKENS_SHOWN = 1_500;

const BLOCK_LABELS: Record<TTokenBlock["kind"], string> = {
  prompt: "prompt",
  generated: "sampled by the model",
  observation: "observation and template (appended to the next prompt)",
};

/**
 * Tokens of some blocks of the flat stream, each drawn as its own text (decoded by the server's
 * tokenizer; a switch shows the ids instead): sampled tokens coloured by their logprob, prompt and
 * observation tokens greyed (loss mask 0). Hovering or selecting a token (click, or arrow keys
 * once the stream has focus) reads out its id, logprob, weight version and text in a live region.
 */
export function TokenView({
  exported,
  blocks,
  label,
  testId,
}: {
  exported: TTokenStreamView;
  blocks: readonly TTokenBlock[];
  label: string;
  testId?: string;
}) {
  const baseId = useId();
  const [selected, setSelected] = useState<number | null>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  const [isExpanded, setIsExpanded] = useState(false);
  const [showsIds, setShowsIds] = useState(false);
  const shown = blocks.map((block) => ({
    ...block,
    shownEnd: isExpanded ? block.end : Math.min(block.end, block.start + MAX_TOKENS_SHOWN),
  }));
  const positions = shown.flatMap((block) => range(block.start, block.shownEnd));
  const hidden = shown.reduce((sum, block) => sum + (block.end - block.shownEnd), 0);
  const texts = useTokenTexts(
    positions.map((position) => exported.tokens[position] ?? 0),
    !showsIds,
  );
  const textOf = (position: number) => texts.byId.get(exported.tokens[position] ?? -1);

  const describe = (position: number) => {
    const block = blocks.find((candidate) => position >= candidate.start && position < candidate.end);
    const turn = exported.turns.find((candidate) => candidate.index === block?.turnIndex);
    const isSampled = exported.lossMask[position] === 1;
    const head = describeToken({
      position,
      id: exported.tokens[position] ?? -1,
      isSampled,
      logprob: exported.logprobs[position] ?? null,
      ...(isSampled && turn ? { weightVersion: weightVersionAt(turn, position) } : {}),
    });
    const text = describeText(textOf(position));
    return text === undefined ? head : `${head} · ${text}`;
  };

  const positionOf = (event: MouseEvent<HTMLDivElement>): number | null => {
    const value = (event.target as HTMLElement).dataset.pos;
    return value === undefined ? null : Number(value);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (positions.length === 0) return;
    const at = selected === null ? -1 : positions.indexOf(selected);
    let next: number | null = null;
    if (event.key === "ArrowRight") next = positions[Math.min(positions.length - 1, at + 1)] ?? null;
    if (event.key === "ArrowLeft") next = positions[Math.max(0, at - 1)] ?? null;
    if (event.key === "Home") next = positions[0] ?? null;
    if (event.key === "End") next = positions.at(-1) ?? null;
    if (next !== null) {
      event.preventDefault();
      setSelected(next);
    }
  };

  const current = hovered ?? selected;
  const textState = showsIds
    ? null
    : texts.error !== null
      ? `Token text unavailable (${texts.error}); showing ids.`
      : texts.isLoading
        ? "Decoding tokens…"
        : null;
  return (
    <div data-testid={testId}>
      <p className={styles.controls}>
        <button
          type="button"
          className={styles.switch}
          aria-pressed={showsIds}
          onClick={() => setShowsIds((value) => !value)}
          data-testid="token-ids-switch"
        >
          Show ids
        </button>
        {textState === null ? null : <span data-testid="token-text-state">{textState}</span>}
      </p>
      <div
        className={styles.stream}
        role="listbox"
        aria-label={`${label}: focus and use the arrow keys to read each token's id and logprob`}
        aria-activedescendant={selected === null ? undefined : `${baseId}-${selected}`}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onMouseOver={(event) => setHovered(positionOf(event))}
        onMouseLeave={() => setHovered(null)}
        onClick={(event) => setSelected(positionOf(event))}
        onFocus={() => setSelected((value) => value ?? positions[0] ?? null)}
      >
        {shown.map((block) =>
          range(block.start, block.shownEnd).map((position) => {
            const isSampled = exported.lossMask[position] === 1;
            const tone = isSampled
              ? styles[confidenceOf(exported.logprobs[position] ?? null)]
              : styles.masked;
            const piece = showsIds ? undefined : textOf(position);
            return (
              <span
                key={position}
                id={`${baseId}-${position}`}
                role="option"
                tabIndex={-1}
                aria-selected={selected === position}
                data-pos={position}
                data-testid={isSampled ? "token-sampled" : "token-masked"}
                data-logprob={exported.logprobs[position] ?? undefined}
                data-token-id={exported.tokens[position]}
                className={`${styles.token} ${tone} ${selected === position ? styles.selected : ""}`}
                title={describe(position)}
              >
                {piece === undefined ? exported.tokens[position] : visibleText(piece.text)}
              </span>
            );
          }),
        )}
      </div>
      <p className={styles.readout} aria-live="polite" data-testid="token-readout">
        {current === null
          ? `${blocks.map((block) => `${block.end - block.start} ${BLOCK_LABELS[block.kind]}`).join(" · ")}`
          : describe(current)}
      </p>
      {hidden > 0 ? (
        <button type="button" className={styles.more} onClick={() => setIsExpanded(true)}>
          Show all tokens ({hidden} more)
        </button>
      ) : null}
    </div>
  );
}

/** The colour key of the token view. */
export function TokenLegend() {
  const items = [
    { className: styles.high, text: "p ≥ 0.9" },
    { className: styles.mid, text: "0.5 ≤ p < 0.9" },
    { className: styles.low, text: "0.1 ≤ p < 0.5" },
    { className: styles.vlow, text: "p < 0.1" },
    { className: styles.none, text: "no logprob" },
    { className: styles.masked, text: "prompt / observation (loss mask 0)" },
  ];
  return (
    <ul className={styles.legend} aria-label="Token colours">
      {items.map((item) => (
        <li key={item.text}>
          <span className={`${styles.token} ${item.className}`}>id</span>
          {item.text}
        </li>
      ))}
    </ul>
  );
}

function range(start: number, end: number): number[] {
  return Array.from({ length: Math.max(0, end - start) }, (_, offset) => start + offset);
}
