import type { TGatewayTraces, TTraceChain } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { breakRows, certificateFacts, chainRows, chainTokenStream } from "./gateway-trace-rows";

function chain(index: number, over: Partial<TTraceChain> = {}): TTraceChain {
  return {
    index,
    origin: "start",
    fromChainIndex: null,
    callIds: ["c0", "c1"],
    // prompt 3, call 0 samples 2, observation 2, call 1 samples 1
    tokens: [1, 2, 3, 10, 11, 4, 5, 12],
    lossMask: [0, 0, 0, 1, 1, 0, 0, 1],
    logprobs: [null, null, null, -0.1, -0.2, null, null, -0.3],
    logprobsComplete: true,
    promptLength: 3,
    spans: [
      { callId: "c0", start: 3, end: 5, backendId: "b", weightVersion: "v1", finishReason: "tool_calls" },
      { callId: "c1", start: 7, end: 8, backendId: "b", weightVersion: "v2", finishReason: "stop" },
    ],
    ...over,
  };
}

const broken: TGatewayTraces = {
  chains: [chain(0), chain(1, { origin: "split", fromChainIndex: 0, callIds: ["c2"] })],
  certificate: {
    isCertified: false,
    callCount: 3,
    chainCount: 2,
    callsMerged: 1,
    forkCount: 0,
    breaks: [
      {
        callId: "c2",
        callSeq: 2,
        chainIndex: 0,
        newChainIndex: 1,
        position: 6,
        expectedId: 5,
        actualId: null,
        region: "prompt",
        message: "history truncated",
      },
    ],
    toolChoiceViolations: [],
  },
};

describe("gateway trace rows", () => {
  it("summarises the certificate, saying plainly whether it is certified", () => {
    const facts = certificateFacts(broken.certificate);
    expect(facts.map((fact) => [fact.label, fact.value])).toEqual([
      ["Token-exact", "no — a chain broke"],
      ["Model calls", "3"],
      ["Chains", "2"],
      ["Calls merged", "1"],
      ["Forks (parallel calls)", "0"],
      ["Breaks", "1"],
    ]);
    expect(certificateFacts({ ...broken.certificate, isCertified: true, breaks: [] })[0]?.value).toBe(
      "yes — certified",
    );
  });

  it("lists each break with its position, region and expected vs actual id", () => {
    expect(breakRows(broken.certificate.breaks)).toEqual([
      {
        key: "c2",
        callSeq: 2,
        chains: "0 → 1",
        position: 6,
        region: "prompt (history rewritten or truncated)",
        expectedId: "5",
        actualId: "— (prompt ended)",
        message: "history truncated",
      },
    ]);
  });

  it("describes each chain's origin, size, sampled tokens and how it ended", () => {
    expect(chainRows(broken)).toEqual([
      {
        index: 0,
        origin: "start",
        calls: 2,
        tokens: 8,
        sampled: 3,
        end: "broken at token 6 by call 2 (→ chain 1)",
      },
      { index: 1, origin: "split from chain 0", calls: 1, tokens: 8, sampled: 3, end: "exact" },
    ]);
  });

  it("cuts a chain into prompt, sampled and observation blocks for the token view", () => {
    const { stream, blocks } = chainTokenStream(chain(0));
    expect(blocks).toEqual([
      { kind: "prompt", turnIndex: null, start: 0, end: 3 },
      { kind: "generated", turnIndex: 0, start: 3, end: 5 },
      { kind: "observation", turnIndex: 0, start: 5, end: 7 },
      { kind: "generated", turnIndex: 1, start: 7, end: 8 },
    ]);
    expect(stream.turns.map((turn) => turn.weightVersion)).toEqual(["v1", "v2"]);
    expect(stream.lossMask).toEqual(chain(0).lossMask);
  });
});
