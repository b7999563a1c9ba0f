import type { TTokenText } from "./token-text";
import type { TAlternativeView, TTokenStreamView } from "./trajectory-types";

/** One alternative as the detail panel lists it: rank, probability, and whether it was the one sampled. */
interface TAlternativeRow extends TAlternativeView {
  rank: number;
  probability: number;
  isSampled: boolean;
}

/** The top-k alternatives recorded at `position`; empty off the sampled tokens or when none were asked for. */
function alternativesAt(
  exported: Pick<TTokenStreamView, "topLogprobs">,
  position: number,
): readonly TAlternativeView[] {
  return exported.topLogprobs?.[position] ?? [];
}

/** The alternatives at `position` as rows, most likely first (as the backend ranked them). */
export function alternativeRows(
  exported: Pick<TTokenStreamView, "tokens" | "topLogprobs">,
  position: number,
): TAlternativeRow[] {
  const sampledId = exported.tokens[position];
  return alternativesAt(exported, position).map((alternative, index) => ({
    ...alternative,
    rank: index + 1,
    probability: Math.exp(alternative.logprob),
    isSampled: alternative.tokenId === sampledId,
  }));
}

/**
 * The alternatives in a sentence for a token's tooltip and readout, e.g.
 * `top 3: "Hi" -0.105 (sampled), "Hey" -2.303, id 91 -4.000`; a token is named by its text once
 * decoded, else by its id. Undefined when there are none.
 */
export function describeAlternatives(
  exported: Pick<TTokenStreamView, "tokens" | "topLogprobs">,
  position: number,
  textOf: (id: number) => TTokenText | undefined,
): string | undefined {
  const rows = alternativeRows(exported, position);
  if (rows.length === 0) return undefined;
  const parts = rows.map((row) => {
    const text = textOf(row.tokenId);
    const name = text === undefined || text.isPartial ? `id ${row.tokenId}` : JSON.stringify(text.text);
    return `${name} ${row.logprob.toFixed(3)}${row.isSampled ? " (sampled)" : ""}`;
  });
  return `top ${rows.length}: ${parts.join(", ")}`;
}
