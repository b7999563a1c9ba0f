import { describe, expect, it } from "vitest";
import { tokenPieces } from "./token-pieces";

// A toy vocabulary: 1 and 2 are halves of one character (each alone decodes to U+FFFD).
const vocabulary: Record<number, string> = {
  0: "Hello",
  1: "\uFFFD",
  2: "\uFFFD",
  3: " world",
  4: "<|im_end|>",
};
const decode = (ids: readonly number[]) => ids.map((id) => vocabulary[id] ?? "").join("");

describe("tokenPieces", () => {
  it("decodes each id on its own, in order, duplicates included", () => {
    expect(tokenPieces([0, 3, 3, 4], decode)).toEqual([
      { id: 0, text: "Hello", isPartial: false },
      { id: 3, text: " world", isPartial: false },
      { id: 3, text: " world", isPartial: false },
      { id: 4, text: "<|im_end|>", isPartial: false },
    ]);
  });

  it("marks a token that is only part of a character", () => {
    expect(tokenPieces([1, 2], decode).map((piece) => piece.isPartial)).toEqual([true, true]);
  });

  it("asks the decoder for one id at a time", () => {
    const calls: number[][] = [];
    tokenPieces([0, 1, 2], (ids) => {
      calls.push([...ids]);
      return decode(ids);
    });
    expect(calls).toEqual([[0], [1], [2]]);
  });

  it("returns nothing for no ids", () => {
    expect(tokenPieces([], decode)).toEqual([]);
  });
});
