import { describe, expect, it } from "vitest";
import { alternativeRows, describeAlternatives } from "./token-alternatives";
import { describeToken } from "./token-blocks";
import { describeTokenAt } from "./token-view-model";
import { versionAt, versionCounts, versionLabel, versionTone } from "./weight-versions";

/** A prompt of 2, a turn of 3 sampled tokens (two under version 4, one under 5), an observation of 1. */
const stream = {
  tokens: [100, 101, 9, 8, 7, 102],
  lossMask: [0, 0, 1, 1, 1, 0] as (0 | 1)[],
  logprobs: [null, null, -0.105, -0.5, -2, null],
  versions: [-1, -1, 4, 4, 5, -1],
  topLogprobs: [
    null,
    null,
    [
      { tokenId: 9, logprob: -0.105 },
      { tokenId: 3, logprob: -2.5 },
    ],
    [
      { tokenId: 2, logprob: -0.3 },
      { tokenId: 8, logprob: -0.5 },
    ],
    null,
    null,
  ],
  turns: [
    {
      index: 0,
      weightVersion: "5",
      weightVersionSpans: [
        { start: 2, end: 4, weightVersion: "4" },
        { start: 4, end: 5, weightVersion: "5" },
      ],
    },
  ],
};
const blocks = [
  { kind: "prompt" as const, turnIndex: null, start: 0, end: 2 },
  { kind: "generated" as const, turnIndex: 0, start: 2, end: 5 },
  { kind: "observation" as const, turnIndex: 0, start: 5, end: 6 },
];
const texts = new Map([
  [9, { text: "Hi", isPartial: false }],
  [3, { text: "", isPartial: true }],
]);

describe("top-k alternatives", () => {
  it("ranks the alternatives at a sampled token and marks the sampled one", () => {
    expect(alternativeRows(stream, 3)).toEqual([
      { tokenId: 2, logprob: -0.3, rank: 1, probability: Math.exp(-0.3), isSampled: false },
      { tokenId: 8, logprob: -0.5, rank: 2, probability: Math.exp(-0.5), isSampled: true },
    ]);
    expect(alternativeRows(stream, 0)).toEqual([]);
    expect(alternativeRows(stream, 4)).toEqual([]);
    expect(alternativeRows({ tokens: stream.tokens }, 2)).toEqual([]);
  });

  it("says them by text once decoded, by id otherwise (and for a part of a character)", () => {
    expect(describeAlternatives(stream, 2, (id) => texts.get(id))).toBe(
      'top 2: "Hi" -0.105 (sampled), id 3 -2.500',
    );
    expect(describeAlternatives(stream, 1, (id) => texts.get(id))).toBeUndefined();
  });
});

describe("weight versions per token", () => {
  it("counts sampled tokens per integer version, ascending, and reads a token's", () => {
    expect(versionCounts(stream)).toEqual([
      { version: 4, tokens: 2 },
      { version: 5, tokens: 1 },
    ]);
    expect(versionCounts({ lossMask: [1, 1], versions: [-1, 3] })).toEqual([
      { version: -1, tokens: 1 },
      { version: 3, tokens: 1 },
    ]);
    expect(versionCounts({ lossMask: [1, 1] })).toEqual([]);
    expect(versionAt(stream, 4)).toBe(5);
    expect(versionAt(stream, 0)).toBeNull();
    expect(versionAt({ lossMask: [1] }, 0)).toBeNull();
    expect(versionLabel(-1)).toBe("none (-1)");
  });

  it("tells versions apart only when there are several", () => {
    const counts = versionCounts(stream);
    expect(versionTone(4, counts)).toBe(0);
    expect(versionTone(5, counts)).toBe(1);
    expect(versionTone(null, counts)).toBeNull();
    expect(versionTone(4, [{ version: 4, tokens: 3 }])).toBeNull();
  });
});

describe("a token's readout", () => {
  it("gives a sampled token's weights, integer version, text and alternatives", () => {
    expect(describeTokenAt(stream, blocks, 2, (id) => texts.get(id))).toBe(
      'token 2 · id 9 · sampled · logprob -0.105 (p 90.0 %) · weights 4 · version 4 · text "Hi" · top 2: "Hi" -0.105 (sampled), id 3 -2.500',
    );
    expect(describeTokenAt(stream, blocks, 4, () => undefined)).toBe(
      "token 4 · id 7 · sampled · logprob -2.000 (p 13.5 %) · weights 5 · version 5",
    );
    expect(describeTokenAt(stream, blocks, 5, () => undefined)).toBe(
      "token 5 · id 102 · not trained on (loss mask 0)",
    );
  });

  it("says a version that is not an integer", () => {
    expect(
      describeToken({
        position: 1,
        id: 2,
        isSampled: true,
        logprob: null,
        weightVersion: "ckpt-a",
        version: -1,
      }),
    ).toBe("token 1 · id 2 · sampled · no logprob · weights ckpt-a · version none (-1)");
  });
});
