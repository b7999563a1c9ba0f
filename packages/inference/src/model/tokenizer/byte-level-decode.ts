/** The parts of a loaded byte-level BPE tokenizer (`@lenml/tokenizers`) that decoding reads. */
export interface ByteLevelTokenizerParts {
  model?: { vocab?: readonly (string | undefined)[] };
  decoder?: {
    config?: { type?: string };
    byte_decoder?: Record<string, number>;
    end_of_word_suffix?: string | null;
  } | null;
  added_tokens?: readonly { content: string }[];
  clean_up_tokenization_spaces?: boolean;
}

/** A token's contribution to the text: its bytes, or an added token's text as it is. */
type Piece = Uint8Array | string;

/**
 * Decoding as the tokenizer's own `decode(ids, { skip_special_tokens: false })` does it, without
 * its per-token costs (a search of the added tokens and a spread of every token's characters):
 * each regular token's bytes are worked out once, a run of them is concatenated and read as UTF-8
 * (invalid sequences become U+FFFD, as there), and an added token (`<|im_end|>`, `<tool_call>`, …)
 * ends the run and stands for its own text; the config's clean-up of spaces, if set, comes last. Null when the tokenizer is not of that kind; the
 * returned decoder hands anything unusual (no ids, an id outside the vocabulary, a character
 * outside the byte alphabet) to `fallback`, so its answer is always the tokenizer's.
 */
export function createByteLevelDecode(
  parts: ByteLevelTokenizerParts,
  fallback: (ids: readonly number[]) => string,
): ((ids: readonly number[]) => string) | null {
  const vocab = parts.model?.vocab;
  const decoder = parts.decoder;
  const byteOf = decoder?.byte_decoder;
  if (!vocab || !byteOf || decoder?.config?.type !== "ByteLevel") return null;
  if (decoder.end_of_word_suffix) return null;
  const finish = parts.clean_up_tokenization_spaces ? cleanUpTokenizationSpaces : (text: string) => text;
  const addedTexts = new Set((parts.added_tokens ?? []).map((token) => token.content));
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  const pieces: (Piece | null | undefined)[] = new Array(vocab.length);

  /** The token's piece; null when it has none to give (then the tokenizer decodes). */
  const pieceOf = (id: number): Piece | null => {
    const known = pieces[id];
    if (known !== undefined) return known;
    const token = vocab[id];
    let piece: Piece | null = null;
    if (typeof token === "string") {
      if (addedTexts.has(token)) piece = token;
      else {
        const bytes = new Uint8Array(token.length);
        let length = 0;
        for (const char of token) {
          const byte = byteOf[char];
          if (byte === undefined) {
            length = -1;
            break;
          }
          bytes[length++] = byte;
        }
        piece = length < 0 ? null : bytes.slice(0, length);
      }
    }
    pieces[id] = piece;
    return piece;
  };

  let run = new Uint8Array(4_096);
  return (ids) => {
    if (ids.length === 0) return fallback(ids);
    let out = "";
    let runLength = 0;
    for (const id of ids) {
      const piece = Number.isInteger(id) && id >= 0 && id < vocab.length ? pieceOf(id) : null;
      if (piece === null) return fallback(ids);
      if (typeof piece === "string") {
        if (runLength > 0) out += text.decode(run.subarray(0, runLength));
        runLength = 0;
        out += piece;
        continue;
      }
      if (runLength + piece.length > run.length) {
        const grown = new Uint8Array(Math.max(run.length * 2, runLength + piece.length));
        grown.set(run.subarray(0, runLength));
        run = grown;
      }
      run.set(piece, runLength);
      runLength += piece.length;
    }
    if (runLength > 0) out += text.decode(run.subarray(0, runLength));
    return finish(out);
  };
}

/**
 * The library's clean-up of decoded text when the tokenizer config asks for it (Llama 3's does):
 * the space before `.`, `?`, `!`, `,` and English contractions goes, over the whole text.
 */
function cleanUpTokenizationSpaces(text: string): string {
  return text
    .replaceAll(" .", ".")
    .replaceAll(" ?", "?")
    .replaceAll(" !", "!")
    .replaceAll(" ,", ",")
    .replaceAll(" ' ", "'")
    .replaceAll(" n't", "n't")
    .replaceAll(" 'm", "'m")
    .replaceAll(" 's", "'s")
    .replaceAll(" 've", "'ve")
    .replaceAll(" 're", "'re");
}
