import { describe, expect, it } from "vitest";
import { activityTimeline } from "./activity-timeline";
import { confidenceOf, describeToken, splitThinking, tokenBlocks, weightVersionAt } from "./token-blocks";

describe("tokenBlocks", () => {
  it("cuts the stream into prompt, each turn's sampled tokens and the observation after it", () => {
    const turns = [
      { index: 0, start: 4, end: 7 },
      { index: 1, start: 10, end: 12 },
    ];
    expect(tokenBlocks({ promptLength: 4, tokens: new Array(12).fill(1), turns })).toEqual([
      { kind: "prompt", turnIndex: null, start: 0, end: 4 },
      { kind: "generated", turnIndex: 0, start: 4, end: 7 },
      { kind: "observation", turnIndex: 0, start: 7, end: 10 },
      { kind: "generated", turnIndex: 1, start: 10, end: 12 },
    ]);
    // Trailing tokens after the last turn (a stream cut at a break keeps none): an observation.
    expect(
      tokenBlocks({ promptLength: 2, tokens: [1, 2, 3, 4], turns: [{ index: 0, start: 2, end: 3 }] }),
    ).toEqual([
      { kind: "prompt", turnIndex: null, start: 0, end: 2 },
      { kind: "generated", turnIndex: 0, start: 2, end: 3 },
      { kind: "observation", turnIndex: 0, start: 3, end: 4 },
    ]);
  });
});

describe("token colours and text", () => {
  it("bands logprobs by probability", () => {
    expect(confidenceOf(0)).toBe("high");
    expect(confidenceOf(Math.log(0.6))).toBe("mid");
    expect(confidenceOf(Math.log(0.2))).toBe("low");
    expect(confidenceOf(Math.log(0.01))).toBe("vlow");
    expect(confidenceOf(null)).toBe("none");
  });

  it("says where a token is, whether it is trained on, its logprob and weight version", () => {
    expect(
      describeToken({ position: 5, id: 42, isSampled: true, logprob: -0.105, weightVersion: "v2" }),
    ).toBe("token 5 · id 42 · sampled · logprob -0.105 (p 90.0 %) · weights v2");
    expect(describeToken({ position: 1, id: 7, isSampled: false, logprob: null })).toBe(
      "token 1 · id 7 · not trained on (loss mask 0)",
    );
  });

  it("finds the weight version of a token in a turn continued across a weight sync", () => {
    const turn = {
      weightVersion: "v9",
      weightVersionSpans: [
        { start: 10, end: 14, weightVersion: "v8" },
        { start: 14, end: 20, weightVersion: "v9" },
      ],
    };
    expect(weightVersionAt(turn, 12)).toBe("v8");
    expect(weightVersionAt(turn, 14)).toBe("v9");
    expect(weightVersionAt({ weightVersion: "v1", weightVersionSpans: [] }, 3)).toBe("v1");
  });

  it("splits thinking from the answer, also when the think block is not closed", () => {
    expect(splitThinking("<think>try 2+2</think>\nThe answer is 4.")).toEqual({
      thinking: "try 2+2",
      answer: "The answer is 4.",
    });
    expect(splitThinking("<think>still going")).toEqual({ thinking: "still going", answer: "" });
    expect(splitThinking("plain")).toEqual({ thinking: null, answer: "plain" });
    expect(splitThinking(null)).toEqual({ thinking: null, answer: "" });
  });
});

describe("activityTimeline", () => {
  it("places generations and tool calls from their end times and durations, from the first start", () => {
    const { activities, spanMs } = activityTimeline(
      [
        { index: 0, createdAtMs: 1_100, latencyMs: 100 },
        { index: 1, createdAtMs: 1_500, latencyMs: 200 },
      ],
      [{ turnIndex: 0, index: 0, name: "python", createdAtMs: 1_250, durationMs: 50 }],
    );
    expect(activities).toEqual([
      { kind: "generation", label: "turn 0 generation", startMs: 0, endMs: 100 },
      { kind: "tool", label: "turn 0 tool python", startMs: 200, endMs: 250 },
      { kind: "generation", label: "turn 1 generation", startMs: 300, endMs: 500 },
    ]);
    expect(spanMs).toBe(500);
    expect(activityTimeline([], [])).toEqual({ activities: [], spanMs: 0 });
  });
});
