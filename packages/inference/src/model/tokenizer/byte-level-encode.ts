import { byteIdTable, ID_LIMIT, mergeTable, readByteLevelConfig } from "./byte-level-support";

/** An added token as a loaded tokenizer describes it. */
interface AddedTokenPart {
  content: string;
  id: number;
  lstrip?: boolean;
  rstrip?: boolean;
  normalized?: boolean | null;
}

/** The parts of a loaded byte-level BPE tokenizer (`@lenml/tokenizers`) that encoding reads. */
export interface ByteLevelEncodeParts {
  normalizer?: { config?: { type?: string } } | null;
  /** Any pre-tokenizer; only a `Sequence` (its `tokenizers`) of Split + ByteLevel is encoded here. */
  pre_tokenizer?: object | null;
  model?: {
    tokens_to_ids?: Map<string, number>;
    merges?: readonly (readonly [string, string])[];
    end_of_word_suffix?: string | null;
    continuing_subword_suffix?: string | null;
    ignore_merges?: boolean;
  };
  post_processor?: { config?: { type?: string } } | null;
  added_tokens?: readonly AddedTokenPart[];
  remove_space?: boolean;
  do_lowercase_and_remove_accent?: boolean;
}

/** Pieces cached (each piece's ids), as the tokenizer's own BPE cache. */
const PIECE_CACHE_ENTRIES = 16_384;
/** Longer pieces are merged every time (a long run of spaces or symbols is rarely repeated). */
const PIECE_CACHE_MAX_CHARS = 256;
/** Pieces of at most this many bytes are merged by scanning; longer ones through a heap. */
const SCAN_MAX_BYTES = 48;

/**
 * Encoding as the tokenizer's own `encode(text, { add_special_tokens: false })` does it for a
 * byte-level BPE vocabulary with verbatim added tokens (Qwen2/Qwen3): added tokens split the text
 * (longest first, from the left), each stretch between them is NFC-normalized, split by the
 * pre-tokenizer's pattern (matches and the text between them kept), each piece's UTF-8 bytes become
 * byte tokens, and the lowest-ranked adjacent pair is merged until none is left (the leftmost of
 * equal ranks first). The same ids without the library's per-piece costs (a `TextEncoder` call, an
 * array of characters and a JSON key per pair): merges are looked up by token ids, pieces cached by
 * their text. Null when the tokenizer is not of that kind; the differential test holds it to the
 * library's ids.
 */
export function createByteLevelEncode(parts: ByteLevelEncodeParts): ((text: string) => number[]) | null {
  const config = readByteLevelConfig(parts);
  if (!config) return null;
  const byteIds = byteIdTable(config.idOf);
  if (!byteIds) return null;
  const merged = mergeTable(config.idOf, config.merges);
  if (!merged) return null;
  const encodePiece = createPieceEncoder(byteIds, createMerger(merged));
  const encodeStretch = createStretchEncoder(config.pattern, config.isNfc, encodePiece);
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

/** A piece's UTF-8 bytes as byte tokens, merged (by scanning, or through a heap when long); short pieces cached. */
function createPieceEncoder(byteIds: Int32Array, merger: ReturnType<typeof createMerger>): PieceEncoder {
  const utf8 = new TextEncoder();
  let bytes = new Uint8Array(1_024);
  const cache = new Map<string, readonly number[]>();
  return (piece, out) => {
    const known = cache.get(piece);
    if (known) {
      for (const id of known) out.push(id);
      return;
    }
    let length = 0;
    let isAscii = true;
    for (let i = 0; i < piece.length; i += 1) {
      if (piece.charCodeAt(i) >= 0x80) {
        isAscii = false;
        break;
      }
    }
    if (isAscii) {
      length = piece.length;
      if (bytes.length < length) bytes = new Uint8Array(length * 2);
      for (let i = 0; i < length; i += 1) bytes[i] = piece.charCodeAt(i);
    } else {
      if (bytes.length < piece.length * 3) bytes = new Uint8Array(piece.length * 6);
      length = utf8.encodeInto(piece, bytes).written;
    }
    const symbols = new Array<number>(length);
    for (let i = 0; i < length; i += 1) symbols[i] = byteIds[bytes[i] as number] as number;
    const ids = length <= SCAN_MAX_BYTES ? merger.byScanning(symbols) : merger.byHeap(symbols);
    if (piece.length <= PIECE_CACHE_MAX_CHARS) {
      cache.set(piece, ids);
      if (cache.size > PIECE_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
    }
    for (const id of ids) out.push(id);
  };
}

/** A stretch between added tokens: NFC-normalized, split by the pattern (matches and the text between kept). */
function createStretchEncoder(pattern: RegExp, isNfc: boolean, encodePiece: PieceEncoder): PieceEncoder {
  return (raw, out) => {
    let text = raw;
    if (isNfc && !isAsciiText(text)) text = text.normalize("NFC");
    pattern.lastIndex = 0;
    let at = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const found = match[0];
      if (found.length === 0) {
        // An empty match moves on by one character (a surrogate pair is one), as `matchAll` does.
        const code = text.charCodeAt(pattern.lastIndex);
        pattern.lastIndex += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
        continue;
      }
      if (match.index > at) encodePiece(text.slice(at, match.index), out);
      encodePiece(found, out);
      at = match.index + found.length;
    }
    if (at < text.length) encodePiece(text.slice(at), out);
  };
}

const isAsciiText = (text: string) => {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
};

/**
 * BPE merging of byte-token ids: the lowest-ranked adjacent pair first, the leftmost of ties.
 * `merges` maps a pair (`left * ID_LIMIT + right`) to its rank and merged id (`rank * ID_LIMIT + id`).
 */
function createMerger(merges: ReadonlyMap<number, number>) {
  /** The pair's packed merge (rank and merged id), or undefined when the pair does not merge. */
  const mergeOf = (left: number, right: number) => merges.get(left * ID_LIMIT + right);
  return {
    /** For short pieces: scan every pair for the best, merge it, again (no allocation past the array). */
    byScanning(symbols: number[]): number[] {
      for (;;) {
        let best = Number.POSITIVE_INFINITY;
        let at = -1;
        for (let i = 0; i + 1 < symbols.length; i += 1) {
          const merge = mergeOf(symbols[i] as number, symbols[i + 1] as number);
          if (merge !== undefined && merge < best) {
            best = merge;
            at = i;
          }
        }
        if (at < 0) return symbols;
        symbols[at] = best % ID_LIMIT;
        symbols.splice(at + 1, 1);
      }
    },
    /**
     * For long pieces (a run of spaces or symbols, a blob of letters): a linked list of symbols and
     * a heap of candidate pairs keyed by rank then position; an entry whose pair has changed since
     * it was pushed is skipped when it comes up.
     */
    byHeap(symbols: number[]): number[] {
      const n = symbols.length;
      const next = new Int32Array(n);
      const prev = new Int32Array(n);
      const alive = new Uint8Array(n).fill(1);
      for (let i = 0; i < n; i += 1) {
        next[i] = i + 1 < n ? i + 1 : -1;
        prev[i] = i - 1;
      }
      const heap = new MinHeap();
      /** The packed merge of the pair starting at `i`, if any. */
      const mergeAt = (i: number) => {
        const j = next[i] ?? -1;
        return j < 0 ? undefined : mergeOf(symbols[i] as number, symbols[j] as number);
      };
      const offer = (i: number) => {
        const merge = mergeAt(i);
        if (merge !== undefined) heap.push(Math.floor(merge / ID_LIMIT) * n + i);
      };
      for (let i = 0; i + 1 < n; i += 1) offer(i);
      while (heap.size > 0) {
        const key = heap.pop();
        const i = key % n;
        const rank = (key - i) / n;
        const merge = alive[i] === 0 ? undefined : mergeAt(i);
        if (merge === undefined || Math.floor(merge / ID_LIMIT) !== rank) continue;
        const j = next[i] ?? -1;
        symbols[i] = merge % ID_LIMIT;
        alive[j] = 0;
        const after = next[j] ?? -1;
        next[i] = after;
        if (after >= 0) prev[after] = i;
        offer(i);
        const before = prev[i] ?? -1;
        if (before >= 0) offer(before);
      }
      const out: number[] = [];
      for (let i = 0; i >= 0; i = next[i] ?? -1) out.push(symbols[i] as number);
      return out;
    },
  };
}

/** A binary min-heap of numbers. */
class MinHeap {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(value: number): void {
    const items = this.items;
    let i = items.length;
    items.push(value);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as number) <= value) break;
      items[i] = items[parent] as number;
      i = parent;
    }
    items[i] = value;
  }

  pop(): number {
    const items = this.items;
    const top = items[0] as number;
    const last = items.pop() as number;
    if (items.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && (items[right] as number) < (items[left] as number) ? right : left;
      if ((items[child] as number) >= last) break;
      items[i] = items[child] as number;
      i = child;
    }
    items[i] = last;
    return top;
  }
}
