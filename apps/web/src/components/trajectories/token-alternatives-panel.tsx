"use client";

import { alternativeRows } from "./token-alternatives";
import { visibleText } from "./token-text";
import styles from "./token-view.module.css";
import type { TTokenStreamView } from "./trajectory-types";
import { useTokenTexts } from "./use-token-texts";

/**
 * The top-k alternatives at the hovered or selected token, most likely first, each with its text
 * (decoded by the server's tokenizer), id, logprob and probability; the sampled one is marked.
 * Drawn only for a stream whose job asked for top-k logprobs.
 */
export function TokenAlternativesPanel({
  exported,
  position,
}: {
  exported: TTokenStreamView;
  position: number | null;
}) {
  const rows = position === null ? [] : alternativeRows(exported, position);
  const texts = useTokenTexts(
    rows.map((row) => row.tokenId),
    rows.length > 0,
  );
  if (exported.topLogprobs == null) return null;
  return (
    <div className={styles.alternatives} data-testid="token-alternatives">
      {rows.length === 0 ? (
        <p className={styles.alternativesHint}>
          Hover or select a sampled token to see the top alternatives the model weighed there.
        </p>
      ) : (
        <>
          <p className={styles.alternativesHint}>
            Top {rows.length} alternatives at token {position} (most likely first)
          </p>
          <ol className={styles.alternativeList}>
            {rows.map((row) => {
              const text = texts.byId.get(row.tokenId);
              return (
                <li
                  key={row.rank}
                  data-testid="token-alternative"
                  data-token-id={row.tokenId}
                  data-logprob={row.logprob}
                  data-sampled={row.isSampled}
                  className={row.isSampled ? styles.alternativeSampled : undefined}
                >
                  <span className={styles.alternativeText}>
                    {text === undefined
                      ? "…"
                      : text.isPartial
                        ? "(part of a character)"
                        : visibleText(text.text)}
                  </span>{" "}
                  id {row.tokenId} · logprob {row.logprob.toFixed(3)} · p {(row.probability * 100).toFixed(1)}{" "}
                  %{row.isSampled ? " · sampled" : ""}
                </li>
              );
            })}
          </ol>
        </>
      )}
    </div>
  );
}
