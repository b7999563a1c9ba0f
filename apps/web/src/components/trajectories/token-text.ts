/**
 * Ids per `tokens.decode` call: the server's cap (`MAX_DECODE_IDS` in @raas/api, 512); a call
 * with more is refused with a 400.
 */
export const DECODE_CHUNK = 512;

/** What one token id decodes to on its own (from `tokens.decode`). */
export interface TTokenText {
  text: string;
  /** Only part of a character (byte-level BPE): its text alone is U+FFFD. */
  isPartial: boolean;
}

/**
 * The distinct ids of `ids`, ascending, cut into calls of at most `size`: a stream repeats ids
 * (template tokens, common words), and a stable order lets views of the same page share cached calls.
 */
export function decodeChunks(ids: readonly number[], size = DECODE_CHUNK): number[][] {
  const distinct = [...new Set(ids)].sort((a, b) => a - b);
  const chunks: number[][] = [];
  for (let at = 0; at < distinct.length; at += size) chunks.push(distinct.slice(at, at + size));
  return chunks;
}

/**
 * A token's text as drawn in the stream: whitespace made visible (space ·, newline ↵, tab ⇥),
 * an empty text as ∅, so every token has something to point at.
 */
export function visibleText(text: string): string {
  if (text === "") return "∅";
  return text.replace(/ /g, "·").replace(/\r?\n/g, "↵").replace(/\t/g, "⇥");
}

/** The token's text for the hover readout: quoted as JSON (escapes shown), partial pieces said so. */
export function describeText(piece: TTokenText | undefined): string | undefined {
  if (piece === undefined) return undefined;
  return piece.isPartial ? "text: part of a character" : `text ${JSON.stringify(piece.text)}`;
}
