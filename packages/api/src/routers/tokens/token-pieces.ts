/** Most token ids one `tokens.decode` call takes (a GET's URL stays well under 16 KiB). */
export const MAX_DECODE_IDS = 512;

/** One token id and the text it stands for on its own. */
export interface TTokenPiece {
  id: number;
  text: string;
  /**
   * True when the token is only part of a character (byte-level BPE splits some UTF-8 sequences):
   * its text alone is a replacement character, and the character appears whole only with its neighbours.
   */
  isPartial: boolean;
}

const REPLACEMENT = "\uFFFD";

/**
 * Each id decoded on its own (what that one token contributes), in order. `decode` is the family's
 * decoder; ids are decoded one by one, never merged, so the i-th piece always belongs to the i-th id.
 */
export function tokenPieces(
  ids: readonly number[],
  decode: (ids: readonly number[]) => string,
): TTokenPiece[] {
  return ids.map((id) => {
    const text = decode([id]);
    return { id, text, isPartial: text.includes(REPLACEMENT) };
  });
}
