/** GPT-2's byte alphabet: the character each byte stands for in a byte-level vocabulary. */
export function byteAlphabet(): string[] {
  const chars: string[] = new Array(256);
  let shifted = 0;
  for (let byte = 0; byte < 256; byte += 1) {
    const printable = (byte >= 33 && byte <= 126) || (byte >= 161 && byte <= 172) || byte >= 174;
    chars[byte] = String.fromCharCode(printable ? byte : 256 + shifted++);
  }
  return chars;
}

/** Token ids are below this (2^22), so a pair of them, or a rank and an id, pack into one number. */
export const ID_LIMIT = 4_194_304;

/** Each byte's token id; null when a byte has none. */
export function byteIdTable(idOf: ReadonlyMap<string, number>): Int32Array | null {
  const alphabet = byteAlphabet();
  const byteIds = new Int32Array(256);
  for (let byte = 0; byte < 256; byte += 1) {
    const id = idOf.get(alphabet[byte] as string);
    if (id === undefined) return null;
    byteIds[byte] = id;
  }
  return byteIds;
}

/**
 * A pair of ids → the merge's rank and the merged token's id, packed in one number; a later merge
 * of the same pair replaces an earlier one, as in the library's rank map. Null when ids do not
 * stand for strings one to one (a merge found by ids must be the merge the library finds by
 * strings) or a merge's tokens are missing.
 */
export function mergeTable(
  idOf: ReadonlyMap<string, number>,
  merges: readonly (readonly [string, string])[],
): Map<number, number> | null {
  const ids = new Set(idOf.values());
  if (ids.size !== idOf.size) return null;
  const merged = new Map<number, number>();
  for (let rank = 0; rank < merges.length; rank += 1) {
    const [left, right] = merges[rank] as readonly [string, string];
    const leftId = idOf.get(left);
    const rightId = idOf.get(right);
    const mergedId = idOf.get(left + right);
    if (leftId === undefined || rightId === undefined || mergedId === undefined) return null;
    if (leftId >= ID_LIMIT || rightId >= ID_LIMIT || mergedId >= ID_LIMIT) return null;
    merged.set(leftId * ID_LIMIT + rightId, rank * ID_LIMIT + mergedId);
  }
  return merged;
}
