import { describe, expect, it } from "vitest";
import { DECODE_CHUNK, decodeChunks, describeText, visibleText } from "./token-text";

describe("decodeChunks", () => {
  it("asks for each distinct id once, ascending, in calls of at most the server's cap", () => {
    expect(decodeChunks([9, 3, 9, 151644, 3])).toEqual([[3, 9, 151644]]);
    const ids = Array.from({ length: DECODE_CHUNK * 2 + 1 }, (_, index) => 5_000 - index);
    const chunks = decodeChunks([...ids, ...ids]);
    expect(chunks.map((chunk) => chunk.length)).toEqual([DECODE_CHUNK, DECODE_CHUNK, 1]);
    expect(chunks.flat()).toEqual([...ids].sort((a, b) => a - b));
    expect(decodeChunks([])).toEqual([]);
  });
});

describe("visibleText", () => {
  it("makes whitespace visible and never draws an empty token", () => {
    expect(visibleText(" world")).toBe("·world");
    expect(visibleText("a\nb\r\n\tc")).toBe("a↵b↵⇥c");
    expect(visibleText("")).toBe("∅");
    expect(visibleText("<|im_start|>")).toBe("<|im_start|>");
  });
});

describe("describeText", () => {
  it("quotes the text with its escapes, and says when a token is only part of a character", () => {
    expect(describeText({ text: " 17\n", isPartial: false })).toBe('text " 17\\n"');
    expect(describeText({ text: "\uFFFD", isPartial: true })).toBe("text: part of a character");
    expect(describeText(undefined)).toBeUndefined();
  });
});
