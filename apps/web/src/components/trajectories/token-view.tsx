"use client";

import { type MouseEvent, useId, useMemo, useState } from "react";
import { TokenAlternativesPanel } from "./token-alternatives-panel";
import type { TTokenBlock } from "./token-blocks";
import { confidenceOf } from "./token-blocks";
import type { TTokenText } from "./token-text";
import { visibleText } from "./token-text";
import styles from "./token-view.module.css";
import {
  describeTokenAt,
  nextPosition,
  range,
  shownBlocks,
  summarizeBlocks,
  textStateOf,
} from "./token-view-model";
import type { TTokenStreamView } from "./trajectory-types";
import { useTokenTexts } from "./use-token-texts";
import { versionMarkerClass } from "./weight-version-legend";
import { versionAt, versionCounts } from "./weight-versions";

/**
 * Tokens of some blocks of the flat stream, each drawn as its own text (decoded by the server's
 * tokenizer; a switch shows the ids instead): sampled tokens coloured by their logprob, prompt and
 * observation tokens greyed (loss mask 0), underlined by weight version when the trajectory spans
 * several. Hovering or selecting a token (click, or arrow keys once the stream has focus) reads out
 * its id, logprob, weight version and text in a live region, and lists its top-k alternatives when
 * the job recorded them.
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
  const { shown, positions, hidden } = shownBlocks(blocks, isExpanded);
  const texts = useTokenTexts(
    positions.map((position) => exported.tokens[position] ?? 0),
    !showsIds,
  );
  const textOf = (position: number) => texts.byId.get(exported.tokens[position] ?? -1);
  const describe = (position: number) =>
    describeTokenAt(exported, blocks, position, (id) => texts.byId.get(id));
  const versions = useMemo(() => versionCounts(exported), [exported]);
  const current = hovered ?? selected;
  return (
    <div data-testid={testId}>
      <TokenViewControls
        showsIds={showsIds}
        onToggle={() => setShowsIds((value) => !value)}
        textState={textStateOf(showsIds, texts)}
      />
      <div
        className={styles.stream}
        role="listbox"
        aria-label={`${label}: focus and use the arrow keys to read each token's id and logprob`}
        aria-activedescendant={selected === null ? undefined : `${baseId}-${selected}`}
        tabIndex={0}
        onKeyDown={(event) => {
          const next = nextPosition(event.key, positions, selected);
          if (next === null) return;
          event.preventDefault();
          setSelected(next);
        }}
        onMouseOver={(event) => setHovered(positionOf(event))}
        onMouseLeave={() => setHovered(null)}
        onClick={(event) => setSelected(positionOf(event))}
        onFocus={() => setSelected((value) => value ?? positions[0] ?? null)}
      >
        {shown.map((block) =>
          range(block.start, block.shownEnd).map((position) => (
            <TokenSpan
              key={position}
              id={`${baseId}-${position}`}
              exported={exported}
              position={position}
              isSelected={selected === position}
              piece={showsIds ? undefined : textOf(position)}
              title={describe(position)}
              versionClass={versionMarkerClass(versionAt(exported, position), versions)}
            />
          )),
        )}
      </div>
      <p className={styles.readout} aria-live="polite" data-testid="token-readout">
        {current === null ? summarizeBlocks(blocks) : describe(current)}
      </p>
      <TokenAlternativesPanel exported={exported} position={current} />
      {hidden > 0 ? (
        <button type="button" className={styles.more} onClick={() => setIsExpanded(true)}>
          Show all tokens ({hidden} more)
        </button>
      ) : null}
    </div>
  );
}

function TokenViewControls({
  showsIds,
  onToggle,
  textState,
}: {
  showsIds: boolean;
  onToggle: () => void;
  textState: string | null;
}) {
  return (
    <p className={styles.controls}>
      <button
        type="button"
        className={styles.switch}
        aria-pressed={showsIds}
        onClick={onToggle}
        data-testid="token-ids-switch"
      >
        Show ids
      </button>
      {textState === null ? null : <span data-testid="token-text-state">{textState}</span>}
    </p>
  );
}

/** One token: its text (or id), coloured by its logprob when sampled, greyed when masked. */
function TokenSpan({
  id,
  exported,
  position,
  isSelected,
  piece,
  title,
  versionClass,
}: {
  id: string;
  exported: TTokenStreamView;
  position: number;
  isSelected: boolean;
  piece: TTokenText | undefined;
  title: string;
  /** The weight-version marker, when the trajectory spans several versions. */
  versionClass: string | undefined;
}) {
  const isSampled = exported.lossMask[position] === 1;
  const tone = isSampled ? styles[confidenceOf(exported.logprobs[position] ?? null)] : styles.masked;
  return (
    <span
      id={id}
      role="option"
      tabIndex={-1}
      aria-selected={isSelected}
      data-pos={position}
      data-testid={isSampled ? "token-sampled" : "token-masked"}
      data-logprob={exported.logprobs[position] ?? undefined}
      data-token-id={exported.tokens[position]}
      data-version={versionAt(exported, position) ?? undefined}
      className={`${styles.token} ${tone} ${versionClass ?? ""} ${isSelected ? styles.selected : ""}`}
      title={title}
    >
      {piece === undefined ? exported.tokens[position] : visibleText(piece.text)}
    </span>
  );
}

function positionOf(event: MouseEvent<HTMLDivElement>): number | null {
  const value = (event.target as HTMLElement).dataset.pos;
  return value === undefined ? null : Number(value);
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
