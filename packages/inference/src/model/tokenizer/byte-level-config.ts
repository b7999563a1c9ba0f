import type { ByteLevelEncodeParts } from "./byte-level-encode";

/** One step of a `Sequence` pre-tokenizer, as encoding reads it. */
interface PreTokenizerStep {
  config?: { type?: string; behavior?: string; invert?: boolean; add_prefix_space?: boolean };
  pattern?: unknown;
  use_regex?: boolean;
}

/**
 * The steps of a `Sequence` pre-tokenizer; none for any other kind. The library's pre-tokenizers
 * are callable objects (functions with fields).
 */
function preTokenizerSteps(preTokenizer: object | null | undefined): readonly PreTokenizerStep[] {
  if (!preTokenizer || !("tokenizers" in preTokenizer) || !Array.isArray(preTokenizer.tokenizers)) return [];
  const isStep = (step: unknown): step is PreTokenizerStep =>
    (typeof step === "object" || typeof step === "function") && step !== null;
  return preTokenizer.tokenizers.filter(isStep);
}

/** GPT-2's byte alphabet: the character each byte stands for in a byte-level vocabulary. */
function byteAlphabet(): string[] {
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

/** What encoding needs of a supported tokenizer: its vocabulary, merges, split pattern, added tokens. */
export interface ByteLevelConfig {
  idOf: Map<string, number>;
  merges: readonly (readonly [string, string])[];
  /** The pre-tokenizer's split pattern, global. */
  pattern: RegExp;
  isNfc: boolean;
  added: NonNullable<ByteLevelEncodeParts["added_tokens"]>;
}

/**
 * The tokenizer's configuration when it is a byte-level BPE vocabulary with verbatim added tokens
 * (an NFC normalizer or none, a Split + ByteLevel pre-tokenizer, a ByteLevel post-processor); else null.
 */
export function readByteLevelConfig(parts: ByteLevelEncodeParts): ByteLevelConfig | null {
  const model = parts.model;
  const idOf = model?.tokens_to_ids;
  const merges = model?.merges;
  if (!idOf || !merges) return null;
  if (model.end_of_word_suffix || model.continuing_subword_suffix || model.ignore_merges) return null;
  if (parts.remove_space || parts.do_lowercase_and_remove_accent) return null;
  const normalizerType = parts.normalizer?.config?.type;
  if (parts.normalizer && normalizerType !== "NFC") return null;
  if (parts.post_processor && parts.post_processor.config?.type !== "ByteLevel") return null;
  const [split, byteLevel, ...others] = preTokenizerSteps(parts.pre_tokenizer);
  const splitPattern = split?.pattern;
  if (!(splitPattern instanceof RegExp) || split?.config?.type !== "Split" || split.config.invert)
    return null;
  if (split.config.behavior !== "Isolated" || others.length > 0) return null;
  if (byteLevel?.config?.type !== "ByteLevel" || byteLevel.use_regex || byteLevel.config.add_prefix_space) {
    return null;
  }
  const added = parts.added_tokens ?? [];
  if (added.some((token) => token.lstrip || token.rstrip || token.normalized)) return null;
  const flags = splitPattern.flags.includes("g") ? splitPattern.flags : `${splitPattern.flags}g`;
  return {
    idOf,
    merges,
    pattern: new RegExp(splitPattern.source, flags),
    isNfc: normalizerType === "NFC",
    added,
  };
}

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
