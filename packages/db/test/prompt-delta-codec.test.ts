import { describe, expect, it } from "vitest";
import { hashTokenPrefix, joinPrompt, MIN_PREFIX_TOKENS, splitPrompt } from "../src/codec/prompt-delta-codec";

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe("prompt delta codec", () => {
  const first = { promptIds: range(151_000, 40), responseIds: range(7, 20) };
  const secondPrompt = [...first.promptIds, ...first.responseIds, ...range(500, 12)];

  it("stores only the ids after the previous turn's prompt + response and rebuilds the prompt", () => {
    const stored = splitPrompt(secondPrompt, first);
    expect(stored.prefixTokens).toBe(60);
    expect(stored.suffixIds).toEqual(range(500, 12));
    expect(joinPrompt(stored, first)).toEqual(secondPrompt);
  });

  it("uses a partial prefix when the prompt diverges inside the previous response", () => {
    const prompt = [...first.promptIds, ...first.responseIds.slice(0, 5), 99, 98];
    const stored = splitPrompt(prompt, first);
    expect(stored.prefixTokens).toBe(45);
    expect(joinPrompt(stored, first)).toEqual(prompt);
  });

  it("stores a first turn, an empty prompt and a short shared prefix whole", () => {
    expect(splitPrompt(secondPrompt, undefined)).toEqual({
      suffixIds: secondPrompt,
      prefixTokens: 0,
      prefixHash: null,
    });
    expect(splitPrompt([], first)).toEqual({ suffixIds: [], prefixTokens: 0, prefixHash: null });
    const short = [...first.promptIds.slice(0, MIN_PREFIX_TOKENS - 1), 1];
    expect(splitPrompt(short, first).prefixTokens).toBe(0);
    expect(joinPrompt(splitPrompt([], undefined), undefined)).toEqual([]);
  });

  it("keeps large ids exact", () => {
    const big = { promptIds: [2_147_483_647, -2_147_483_648, ...range(0, 30)], responseIds: [151_667] };
    const prompt = [...big.promptIds, ...big.responseIds, 2_147_483_646];
    const stored = splitPrompt(prompt, big);
    expect(joinPrompt(stored, big)).toEqual(prompt);
  });

  it("drops a prefix the previous turn no longer supplies (rewritten or missing): a visible break", () => {
    const stored = splitPrompt(secondPrompt, first);
    const rewritten = { promptIds: first.promptIds, responseIds: range(8, 20) };
    expect(joinPrompt(stored, rewritten)).toEqual(range(500, 12));
    expect(joinPrompt(stored, undefined)).toEqual(range(500, 12));
    expect(joinPrompt(stored, { promptIds: range(151_000, 10), responseIds: [] })).toEqual(range(500, 12));
  });

  it("hashes a prefix that spans prompt and response like the same ids in one array", () => {
    expect(hashTokenPrefix([1, 2], 3, [3, 4])).toBe(hashTokenPrefix([1, 2, 3], 3));
    expect(hashTokenPrefix([1, 2, 3], 3)).not.toBe(hashTokenPrefix([1, 2, 4], 3));
  });
});
