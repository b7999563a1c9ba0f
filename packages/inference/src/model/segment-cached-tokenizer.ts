import type { Tokenizer } from "./model-family.types";

/** Options of `createSegmentCachedTokenizer`. */
export interface SegmentCacheOptions {
  /** Segments kept (least recently used go first). Default 4_096. */
  maxEntries?: number;
  /** Longer segments are encoded every time, never kept. Default 65_536 characters. */
  maxSegmentChars?: number;
}

/**
 * A tokenizer that remembers the ids of the text between added tokens. A byte-level BPE tokenizer
 * matches its added tokens (`<|im_start|>`, `<tool_call>`, …: no strip, not normalized) in the raw
 * text first and encodes each stretch between them on its own, so the ids of a text are the ids of
 * its stretches and added tokens, in order — exactly, not approximately (tested against the whole
 * text's encoding). Chat prompts repeat most stretches (the system prompt with its tools across
 * sessions, role headers, template glue), so each call encodes only what is new. Returns `inner`
 * unchanged when it names no added tokens.
 */
export function createSegmentCachedTokenizer(inner: Tokenizer, options: SegmentCacheOptions = {}): Tokenizer {
  const added = inner.addedTokens;
  if (!added || added.length === 0) return inner;
  const maxEntries = options.maxEntries ?? 4_096;
  const maxSegmentChars = options.maxSegmentChars ?? 65_536;
  const idOf = new Map(added.map((token) => [token.text, token.id]));
  // Longest first, so that a token that begins another never wins over it.
  const alternatives = [...idOf.keys()]
    .sort((a, b) => b.length - a.length)
    .map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const splitter = new RegExp(`(${alternatives.join("|")})`);
  const cache = new Map<string, readonly number[]>();

  const encodeSegment = (segment: string): readonly number[] => {
    const known = cache.get(segment);
    if (known) {
      cache.delete(segment);
      cache.set(segment, known);
      return known;
    }
    const ids = inner.encode(segment);
    if (segment.length <= maxSegmentChars) {
      cache.set(segment, ids);
      if (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
    }
    return ids;
  };

  return {
    addedTokens: added,
    encode(text) {
      const ids: number[] = [];
      // With one capture group, odd positions are the added tokens.
      const parts = text.split(splitter);
      for (let i = 0; i < parts.length; i += 1) {
        const part = parts[i] as string;
        if (i % 2 === 1) ids.push(idOf.get(part) as number);
        else if (part !== "") for (const id of encodeSegment(part)) ids.push(id);
      }
      return ids;
    },
    decode: (ids) => inner.decode(ids),
  };
}
