import { type ByteLevelConfig, type ByteLevelEncodeParts, readByteLevelConfig } from "./byte-level-config";
import { createMerger } from "./byte-level-merge";
import { byteAlphabet, byteIdTable, mergeTable } from "./byte-level-tables";

export type { ByteLevelEncodeParts } from "./byte-level-config";

/** Pieces cached (each piece's ids), as the tokenizer's own BPE cache. */
const PIECE_CACHE_ENTRIES = 16_384;
/** Longer pieces are merged every time (a long run of spaces or symbols is rarely repeated). */
const PIECE_CACHE_MAX_CHARS = 256;
/** Pieces of at most this many bytes are merged by scanning; longer ones through a heap. */
const SCAN_MAX_BYTES = 48;

/**
 * Encoding as the tokenizer's own `encode(text, { add_special_tokens: false })` does it for a
 * byte-level BPE vocabulary (Qwen2/3, Llama 3, DeepSeek V3, gpt-oss): added tokens split the raw
 * text (longest first, from the left), each stretch between them is NFC-normalized when the
 * normalizer says so, split by each Split step's pattern in turn (matches and the text between them
 * kept, each piece split again by the next pattern), each piece's UTF-8 bytes become byte tokens,
 * and — unless the piece is itself a token and the model ignores merges for such pieces — the
 * lowest-ranked adjacent pair is merged until none is left (the leftmost of equal ranks first).
 * The same ids without the library's per-piece costs (a `TextEncoder` call, an array of characters
 * and a JSON key per pair): merges are looked up by token ids, pieces cached by their text. Null
 * when the tokenizer is not of that kind; the differential tests hold it to the library's ids.
 */
export function createByteLevelEncode(parts: ByteLevelEncodeParts): ((text: string) => number[]) | null {
  const config = readByteLevelConfig(parts);
  if (!config) return null;
  const byteIds = byteIdTable(config.idOf);
  if (!byteIds) return null;
  const merged = mergeTable(config.idOf, config.merges);
  if (!merged) return null;
  const encodePiece = createPieceEncoder(byteIds, createMerger(merged), config);
  const encodeStretch = createStretchEncoder(config, encodePiece);
  const addedIdOf = new Map(config.added.map((token) => [token.content, token.id]));
  const addedSplitter =
    config.added.length === 0
      ? null
      : new RegExp(
          `(${[...addedIdOf.keys()]
            .sort((a, b) => b.length - a.length)
            .map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
            .join("|")})`,
        );
  return (text) => {
    const out: number[] = [];
    if (!addedSplitter) {
      if (text.length > 0) encodeStretch(text, out);
      return out;
    }
    // With one capture group, odd positions are the added tokens.
    const stretches = text.split(addedSplitter);
    for (let i = 0; i < stretches.length; i += 1) {
      const stretch = stretches[i] as string;
      if (i % 2 === 1) out.push(addedIdOf.get(stretch) as number);
      else if (stretch.length > 0) encodeStretch(stretch, out);
    }
    return out;
  };
}

type PieceEncoder = (piece: string, out: number[]) => void;

/**
 * A piece's UTF-8 bytes as byte tokens, merged (by scanning, or through a heap when long), or the
 * piece's own token when merges are ignored for pieces in the vocabulary; short pieces cached.
 */
function createPieceEncoder(
  byteIds: Int32Array,
  merger: ReturnType<typeof createMerger>,
  config: ByteLevelConfig,
): PieceEncoder {
  const utf8 = new TextEncoder();
  const alphabet = byteAlphabet();
  let bytes = new Uint8Array(1_024);
  const cache = new Map<string, readonly number[]>();
  /** The piece's own token id (its bytes spelled in the byte alphabet), if it is one. */
  const wholeId = (length: number) => {
    let spelled = "";
    for (let i = 0; i < length; i += 1) spelled += alphabet[bytes[i] as number];
    return config.idOf.get(spelled);
  };
  return (piece, out) => {
    const known = cache.get(piece);
    if (known) {
      for (const id of known) out.push(id);
      return;
    }
    let length = 0;
    if (isAsciiText(piece)) {
      length = piece.length;
      if (bytes.length < length) bytes = new Uint8Array(length * 2);
      for (let i = 0; i < length; i += 1) bytes[i] = piece.charCodeAt(i);
    } else {
      if (bytes.length < piece.length * 3) bytes = new Uint8Array(piece.length * 6);
      length = utf8.encodeInto(piece, bytes).written;
    }
    const whole = config.ignoresMerges ? wholeId(length) : undefined;
    let ids: number[];
    if (whole !== undefined) ids = [whole];
    else {
      const symbols = new Array<number>(length);
      for (let i = 0; i < length; i += 1) symbols[i] = byteIds[bytes[i] as number] as number;
      ids = length <= SCAN_MAX_BYTES ? merger.byScanning(symbols) : merger.byHeap(symbols);
    }
    if (piece.length <= PIECE_CACHE_MAX_CHARS) {
      cache.set(piece, ids);
      if (cache.size > PIECE_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
    }
    for (const id of ids) out.push(id);
  };
}

/**
 * A stretch between added tokens: NFC-normalized when configured, then split by each pattern in
 * turn (matches and the text between them kept, as the library's `Isolated` split does).
 */
function createStretchEncoder(config: ByteLevelConfig, encodePiece: PieceEncoder): PieceEncoder {
  let split: PieceEncoder = encodePiece;
  for (const pattern of [...config.patterns].reverse()) split = createSplitter(pattern, split);
  return (raw, out) => split(config.isNfc && !isAsciiText(raw) ? raw.normalize("NFC") : raw, out);
}

/**
 * Splits a piece at the pattern's matches as the library's `regexSplit` does over `matchAll`:
 * the text before a match, then the match, each handed on when not empty; an empty match cuts
 * there too, and the search moves on by one code point.
 */
function createSplitter(pattern: RegExp, next: PieceEncoder): PieceEncoder {
  const isUnicode = /[uv]/.test(pattern.flags);
  return (text, out) => {
    pattern.lastIndex = 0;
    let at = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const found = match[0];
      if (match.index > at) next(text.slice(at, match.index), out);
      if (found.length > 0) next(found, out);
      else pattern.lastIndex = advanceIndex(text, pattern.lastIndex, isUnicode);
      at = match.index + found.length;
    }
    if (at < text.length) next(text.slice(at), out);
  };
}

/** The index after the code point at `index` (a code unit without the `u` flag), as `matchAll` advances. */
function advanceIndex(text: string, index: number, isUnicode: boolean): number {
  if (!isUnicode || index + 1 >= text.length) return index + 1;
  const lead = text.charCodeAt(index);
  const trail = text.charCodeAt(index + 1);
  return lead >= 0xd800 && lead <= 0xdbff && trail >= 0xdc00 && trail <= 0xdfff ? index + 2 : index + 1;
}

const isAsciiText = (text: string) => {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
};
