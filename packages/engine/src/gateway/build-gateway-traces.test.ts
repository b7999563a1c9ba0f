import { type TGatewayCall, ZGatewayTraces } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { buildGatewayTraces } from "./build-gateway-traces";

const THINK = 151_667;
const THINK_END = 151_668;

function call(
  seq: number,
  promptIds: number[],
  responseIds: number[],
  options: { parent?: string | null; logprobs?: number[] } = {},
): TGatewayCall {
  return {
    id: `c${seq}`,
    seq,
    parentCallId: options.parent ?? null,
    promptIds,
    responseIds,
    logprobs: options.logprobs ?? responseIds.map((id) => -id / 1000),
    finishReason: "stop",
    backendId: "b1",
    weightVersion: "w1",
    latencyMs: 3,
  };
}

function build(calls: TGatewayCall[]) {
  const traces = buildGatewayTraces(calls);
  expect(ZGatewayTraces.parse(traces)).toEqual(traces);
  return traces;
}

// System+user [1 2 3] → sampled [10 11]; tool output [4 5] → sampled [12]; tool output [6] → [13 14].
const straight = [
  call(0, [1, 2, 3], [10, 11]),
  call(1, [1, 2, 3, 10, 11, 4, 5], [12], { parent: "c0" }),
  call(2, [1, 2, 3, 10, 11, 4, 5, 12, 6], [13, 14], { parent: "c1" }),
];

describe("buildGatewayTraces", () => {
  it("merges a straight conversation into one certified stream with mask and aligned logprobs", () => {
    const { chains, certificate } = build([straight[2]!, straight[0]!, straight[1]!]);
    expect(chains).toHaveLength(1);
    const [chain] = chains;
    expect(chain?.tokens).toEqual([1, 2, 3, 10, 11, 4, 5, 12, 6, 13, 14]);
    expect(chain?.lossMask).toEqual([0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1]);
    expect(chain?.logprobs).toEqual([
      null,
      null,
      null,
      -0.01,
      -0.011,
      null,
      null,
      -0.012,
      null,
      -0.013,
      -0.014,
    ]);
    expect(chain?.spans.map((span) => [span.callId, span.start, span.end])).toEqual([
      ["c0", 3, 5],
      ["c1", 7, 8],
      ["c2", 9, 11],
    ]);
    expect(chain).toMatchObject({ index: 0, origin: "start", promptLength: 3, logprobsComplete: true });
    expect(certificate).toEqual({
      isCertified: true,
      callCount: 3,
      chainCount: 1,
      callsMerged: 2,
      forkCount: 0,
      breaks: [],
      toolChoiceViolations: [],
    });
  });

  it("splits at a rewritten earlier message and names the exact token", () => {
    // The harness edited the user message (token 3 → 30) before its third call.
    const rewritten = call(2, [1, 2, 30, 10, 11, 4, 5, 12, 6], [13], { parent: "c1" });
    const { chains, certificate } = build([straight[0]!, straight[1]!, rewritten]);
    expect(chains.map((chain) => chain.callIds)).toEqual([["c0", "c1"], ["c2"]]);
    expect(chains[1]).toMatchObject({ origin: "split", fromChainIndex: 0, promptLength: 9 });
    expect(chains[1]?.tokens).toEqual([1, 2, 30, 10, 11, 4, 5, 12, 6, 13]);
    expect(chains[1]?.lossMask).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(certificate.isCertified).toBe(false);
    expect(certificate).toMatchObject({ callCount: 3, chainCount: 2, callsMerged: 1 });
    expect(certificate.breaks).toEqual([
      expect.objectContaining({
        callId: "c2",
        callSeq: 2,
        chainIndex: 0,
        newChainIndex: 1,
        position: 2,
        expectedId: 3,
        actualId: 30,
        region: "prompt",
      }),
    ]);
    expect(certificate.breaks[0]?.message).toMatch(
      /^call 2 does not continue chain 0 at token 2 .*rewrote or truncated/,
    );
  });

  it("finds a truncated context by the answer it continues and breaks where the dropped tokens began", () => {
    // A context manager dropped the first exchange ([10 11 4 5]) but kept the last answer [12].
    const truncated = call(2, [1, 2, 3, 12, 6], [13, 14], { parent: "c1" });
    const { chains, certificate } = build([straight[0]!, straight[1]!, truncated]);
    expect(chains).toHaveLength(2);
    expect(certificate.breaks).toHaveLength(1);
    expect(certificate.breaks[0]).toMatchObject({
      chainIndex: 0,
      position: 3,
      expectedId: 10,
      actualId: 12,
      region: "prompt",
    });
    // Everything before the break stays exact and trainable in chain 0.
    expect(chains[0]?.tokens).toEqual([1, 2, 3, 10, 11, 4, 5, 12]);
    expect(chains[0]?.lossMask).toEqual([0, 0, 0, 1, 1, 0, 0, 1]);
  });

  it("breaks at the first sampled token when the template dropped a past <think> block", () => {
    // Sampled: <think> 50 51 </think> 60 61 <|im_end|>; the re-rendered history keeps only 60 61.
    const first = call(0, [1, 2, 3], [THINK, 50, 51, THINK_END, 60, 61, 151_645]);
    const second = call(1, [1, 2, 3, 60, 61, 151_645, 4, 5], [70], { parent: "c0" });
    const { chains, certificate } = build([first, second]);
    expect(chains.map((chain) => chain.origin)).toEqual(["start", "split"]);
    expect(certificate.breaks).toEqual([
      expect.objectContaining({ position: 3, expectedId: THINK, actualId: 60, region: "response" }),
    ]);
    expect(certificate.breaks[0]?.message).toMatch(/not sent back as sampled/);
  });

  it("detects a re-rendered answer by prompt prefix when the gateway could not name the parent", () => {
    const first = call(0, [1, 2, 3], [10, 11, 12]);
    const second = call(1, [1, 2, 3, 10, 99, 12, 4], [13]);
    const { certificate } = build([first, second]);
    expect(certificate.breaks).toEqual([
      expect.objectContaining({
        chainIndex: 0,
        position: 4,
        expectedId: 11,
        actualId: 99,
        region: "response",
      }),
    ]);
  });

  it("keeps interleaved sub-agents in separate exact chains", () => {
    // Main agent [1 2 3 …] and a sub-agent [1 7 8 …] (same system prompt, different task), interleaved.
    const calls = [
      call(0, [1, 2, 3], [10]),
      call(1, [1, 7, 8], [20]),
      call(2, [1, 2, 3, 10, 4], [11], { parent: "c0" }),
      call(3, [1, 7, 8, 20, 5], [21], { parent: "c1" }),
      call(4, [1, 7, 8, 20, 5, 21, 6], [22], { parent: "c3" }),
      call(5, [1, 2, 3, 10, 4, 11, 9], [12], { parent: "c2" }),
    ];
    const { chains, certificate } = build(calls);
    expect(chains.map((chain) => chain.callIds)).toEqual([
      ["c0", "c2", "c5"],
      ["c1", "c3", "c4"],
    ]);
    expect(chains[1]?.tokens).toEqual([1, 7, 8, 20, 5, 21, 6, 22]);
    expect(chains[1]?.lossMask).toEqual([0, 0, 0, 1, 0, 1, 0, 1]);
    expect(certificate).toMatchObject({ isCertified: true, chainCount: 2, callsMerged: 4, breaks: [] });
  });

  it("forks parallel calls from one answer and parallel samples of one prompt without a break", () => {
    const calls = [
      call(0, [1, 2], [10]),
      call(1, [1, 2], [11]), // a second sample of the same prompt
      call(2, [1, 2, 10, 3], [12], { parent: "c0" }),
      call(3, [1, 2, 10, 4], [13], { parent: "c0" }), // a parallel branch from the same answer
    ];
    const { chains, certificate } = build(calls);
    expect(chains.map((chain) => [chain.origin, chain.fromChainIndex, chain.callIds])).toEqual([
      ["start", null, ["c0", "c2"]],
      ["fork", 0, ["c1"]],
      ["fork", 0, ["c3"]],
    ]);
    expect(chains[2]?.lossMask).toEqual([0, 0, 0, 0, 1]);
    expect(certificate).toMatchObject({ isCertified: true, forkCount: 2, callsMerged: 1 });
  });

  it("continues the most specific chain and starts fresh conversations as new chains", () => {
    const calls = [
      call(0, [1, 2], [10]),
      call(1, [1, 2, 10, 3], [11], { parent: "c0" }),
      call(2, [5, 6], [12]),
      call(3, [1, 2, 10, 3, 11, 4], [13]),
    ];
    const { chains, certificate } = build(calls);
    expect(chains.map((chain) => chain.callIds)).toEqual([["c0", "c1", "c3"], ["c2"]]);
    expect(certificate).toMatchObject({ isCertified: true, chainCount: 2 });
  });

  it("marks logprobs incomplete (null, not misaligned) when a call came back without them", () => {
    const calls = [call(0, [1], [10, 11]), call(1, [1, 10, 11, 2], [12], { logprobs: [] })];
    const { chains } = build(calls);
    expect(chains[0]?.logprobs).toEqual([null, -0.01, -0.011, null, null]);
    expect(chains[0]?.logprobsComplete).toBe(false);
  });

  it("lists answers that ignored tool_choice without uncertifying the token-exact chain", () => {
    const violation = {
      required: "bash",
      calledTools: [],
      message: "tool_choice named bash but the answer calls no tool",
    };
    const calls = [straight[0]!, { ...straight[1]!, toolChoiceViolation: violation }];
    const { certificate } = build(calls);
    expect(certificate.isCertified).toBe(true);
    expect(certificate.toolChoiceViolations).toEqual([{ callId: "c1", callSeq: 1, ...violation }]);
  });

  it("answers an empty call list with an empty certified trace", () => {
    expect(build([]).certificate).toMatchObject({ isCertified: true, callCount: 0, chainCount: 0 });
  });
});
