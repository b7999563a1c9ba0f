import type { Tokenizer } from "../model-family.types";
import { type ByteLevelTokenizerParts, createByteLevelDecode } from "./byte-level-decode";
import { type ByteLevelEncodeParts, createByteLevelEncode } from "./byte-level-encode";

/** A tokenizer loaded by `@lenml/tokenizers` (a port of transformers.js), as far as we use it. */
export type LibraryTokenizer = ByteLevelEncodeParts &
  ByteLevelTokenizerParts & {
    encode(text: string, options: { add_special_tokens: boolean }): number[];
    decode(ids: number[], options: { skip_special_tokens: boolean }): string;
    added_tokens?: ByteLevelEncodeParts["added_tokens"];
  };

/**
 * Our `Tokenizer` over a library tokenizer: its own encode/decode, or for a byte-level BPE
 * vocabulary the same ids without the library's per-piece costs (differential tests hold the fast
 * paths to the library). Added tokens are listed only when all are matched verbatim (no strip),
 * because only then do they split text exactly; the library matches them in the raw text even when
 * `tokenizer.json` marks them `normalized` (DeepSeek V3's FIM tokens), so that flag does not count.
 */
export function wrapLibraryTokenizer(inner: LibraryTokenizer): Tokenizer {
  const added = inner.added_tokens ?? [];
  const isVerbatim = added.every((token) => !token.lstrip && !token.rstrip);
  // The library throws on no ids; no ids are no text.
  const decode = (ids: readonly number[]) =>
    ids.length === 0 ? "" : inner.decode([...ids], { skip_special_tokens: false });
  return {
    ...(isVerbatim && { addedTokens: added.map((token) => ({ text: token.content, id: token.id })) }),
    encode: createByteLevelEncode(inner) ?? ((text) => inner.encode(text, { add_special_tokens: false })),
    decode: createByteLevelDecode(inner, decode) ?? decode,
  };
}
