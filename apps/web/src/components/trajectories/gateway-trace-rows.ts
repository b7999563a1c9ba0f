import type { TGatewayTraces, TTraceBreak, TTraceCertificate, TTraceChain } from "@raas/shared";
import { type TTokenBlock, tokenBlocks } from "./token-blocks";
import type { TTokenStreamView } from "./trajectory-types";

/** One label–value line of the certificate's summary. */
export interface TCertificateFact {
  label: string;
  value: string;
  testId: string;
}

/** The certificate in a few lines: certified or not, calls, chains, calls merged, forks, breaks. */
export function certificateFacts(certificate: TTraceCertificate): TCertificateFact[] {
  return [
    {
      label: "Token-exact",
      value: certificate.isCertified ? "yes — certified" : "no — a chain broke",
      testId: "certificate-certified",
    },
    { label: "Model calls", value: String(certificate.callCount), testId: "certificate-calls" },
    { label: "Chains", value: String(certificate.chainCount), testId: "certificate-chains" },
    { label: "Calls merged", value: String(certificate.callsMerged), testId: "certificate-merged" },
    { label: "Forks (parallel calls)", value: String(certificate.forkCount), testId: "certificate-forks" },
    { label: "Breaks", value: String(certificate.breaks.length), testId: "certificate-breaks" },
  ];
}

/** A break as a table row: where, in which region, the token expected and the one found. */
export interface TBreakRow {
  key: string;
  callSeq: number;
  chains: string;
  position: number;
  region: string;
  expectedId: string;
  actualId: string;
  message: string;
}

const REGION_LABELS: Record<TTraceBreak["region"], string> = {
  prompt: "prompt (history rewritten or truncated)",
  response: "response (answer re-rendered)",
};

export function breakRows(breaks: readonly TTraceBreak[]): TBreakRow[] {
  return breaks.map((broken) => ({
    key: broken.callId,
    callSeq: broken.callSeq,
    chains: `${broken.chainIndex} → ${broken.newChainIndex}`,
    position: broken.position,
    region: REGION_LABELS[broken.region],
    expectedId: broken.expectedId === null ? "—" : String(broken.expectedId),
    actualId: broken.actualId === null ? "— (prompt ended)" : String(broken.actualId),
    message: broken.message,
  }));
}

/** A chain as a table row: how it began, its calls and tokens, and whether it ended in a break. */
export interface TChainRow {
  index: number;
  origin: string;
  calls: number;
  tokens: number;
  sampled: number;
  end: string;
}

export function chainRows(traces: TGatewayTraces): TChainRow[] {
  return traces.chains.map((chain) => {
    const broken = traces.certificate.breaks.find((candidate) => candidate.chainIndex === chain.index);
    return {
      index: chain.index,
      origin: originLabel(chain),
      calls: chain.callIds.length,
      tokens: chain.tokens.length,
      sampled: chain.lossMask.reduce<number>((sum, bit) => sum + bit, 0),
      end: broken
        ? `broken at token ${broken.position} by call ${broken.callSeq} (→ chain ${broken.newChainIndex})`
        : "exact",
    };
  });
}

function originLabel(chain: TTraceChain): string {
  switch (chain.origin) {
    case "start":
      return "start";
    case "fork":
      return `fork of chain ${chain.fromChainIndex ?? "?"}`;
    case "split":
      return `split from chain ${chain.fromChainIndex ?? "?"}`;
  }
}

/**
 * A chain as the token view draws a stream: its ids, loss mask and logprobs, each call's sampled
 * ids as a "turn" (index = position in the chain) and the ids after it as its observation.
 */
export function chainTokenStream(chain: TTraceChain): { stream: TTokenStreamView; blocks: TTokenBlock[] } {
  const turns = chain.spans.map((span, index) => ({
    index,
    start: span.start,
    end: span.end,
    weightVersion: span.weightVersion,
    weightVersionSpans: [],
  }));
  return {
    stream: { tokens: chain.tokens, lossMask: chain.lossMask, logprobs: chain.logprobs, turns },
    blocks: tokenBlocks({ promptLength: chain.promptLength, tokens: chain.tokens, turns }),
  };
}
