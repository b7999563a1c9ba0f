import type { TGatewayCall, TGatewayTraces, TTraceBreak, TTraceChain } from "@raas/shared";
import { extendsStream, firstStreamDifference, isPrefix } from "./token-prefix";

interface OpenChain {
  chain: TTraceChain;
  head: TGatewayCall;
}

type Placement =
  | { kind: "continue"; chain: OpenChain }
  | { kind: "fork"; from: OpenChain; parent: TGatewayCall }
  | { kind: "break"; from: OpenChain; against: TGatewayCall }
  | { kind: "start" };

/**
 * Rebuilds training traces from the calls a harness made through the gateway (pure).
 *
 * Calls are grouped into chains by token prefix: a call continues the chain whose last prompt +
 * response its prompt repeats exactly; the chain's stream then gets the ids in between (tool
 * output, template glue: mask 0) and the call's **sampled** ids (mask 1, logprobs aligned) — never
 * a decode and re-encode. Sub-agents and parallel calls share no such prefix and get chains of
 * their own. A call that should have continued a chain (its history ends with that chain's last
 * answer, or it repeats the chain's last prompt) but changed what came before is a **break**: the
 * chain ends, the call starts a new one, and the certificate says at which token — a broken chain
 * is never stitched.
 */
export function buildGatewayTraces(calls: readonly TGatewayCall[]): TGatewayTraces {
  const ordered = [...calls].sort((a, b) => a.seq - b.seq);
  const chains: OpenChain[] = [];
  const chainOfCall = new Map<string, OpenChain>();
  const callById = new Map(ordered.map((call) => [call.id, call]));
  const breaks: TTraceBreak[] = [];
  let forkCount = 0;

  for (const call of ordered) {
    const placement = placeCall(call, chains, chainOfCall, callById);
    if (placement.kind === "continue") {
      appendCall(placement.chain, call);
      chainOfCall.set(call.id, placement.chain);
      continue;
    }
    const origin = placement.kind === "break" ? "split" : placement.kind;
    const from = placement.kind === "start" ? null : placement.from;
    const opened = openChain(chains.length, call, origin, from?.chain.index ?? null);
    chains.push(opened);
    chainOfCall.set(call.id, opened);
    if (placement.kind === "fork") forkCount += 1;
    if (placement.kind === "break")
      breaks.push(describeBreak(call, placement.from, placement.against, opened));
  }

  const chainList = chains.map((open) => open.chain);
  return {
    chains: chainList,
    certificate: {
      isCertified: breaks.length === 0,
      callCount: ordered.length,
      chainCount: chainList.length,
      callsMerged: ordered.length - chainList.length,
      forkCount,
      breaks,
      toolChoiceViolations: ordered.flatMap((call) =>
        call.toolChoiceViolation ? [{ callId: call.id, callSeq: call.seq, ...call.toolChoiceViolation }] : [],
      ),
    },
  };
}

function placeCall(
  call: TGatewayCall,
  chains: readonly OpenChain[],
  chainOfCall: ReadonlyMap<string, OpenChain>,
  callById: ReadonlyMap<string, TGatewayCall>,
): Placement {
  // 1. An exact continuation of a chain's last call (the longest such chain: the most specific).
  const continued = longest(chains.filter((open) => extendsStream(open.head, call.promptIds)));
  if (continued) return { kind: "continue", chain: continued };

  // 2. The gateway saw which answer the history ended with: a break against that chain, or a fork
  //    when another call continued that answer already.
  const parent = call.parentCallId ? callById.get(call.parentCallId) : undefined;
  const parentChain = parent ? chainOfCall.get(parent.id) : undefined;
  if (parent && parentChain && parent.seq < call.seq) {
    if (parentChain.head.id === parent.id) return { kind: "break", from: parentChain, against: parent };
    if (extendsStream(parent, call.promptIds)) return { kind: "fork", from: parentChain, parent };
    return { kind: "break", from: parentChain, against: parent };
  }

  // 3. The same prompt again (parallel samples) forks; a longer prompt that repeats a chain's last
  //    prompt but not its answer breaks that chain (the answer was re-rendered).
  const samePrompt = chains.find((open) => sameIds(open.head.promptIds, call.promptIds));
  if (samePrompt) return { kind: "fork", from: samePrompt, parent: samePrompt.head };
  const repeated = longest(chains.filter((open) => isPrefix(open.head.promptIds, call.promptIds)));
  if (repeated) return { kind: "break", from: repeated, against: repeated.head };
  return { kind: "start" };
}

function longest(candidates: readonly OpenChain[]): OpenChain | undefined {
  let best: OpenChain | undefined;
  for (const open of candidates) {
    if (!best || open.head.promptIds.length > best.head.promptIds.length) best = open;
    else if (open.head.promptIds.length === best.head.promptIds.length && open.head.seq > best.head.seq) {
      best = open;
    }
  }
  return best;
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && isPrefix(a, b);
}

function openChain(
  index: number,
  call: TGatewayCall,
  origin: TTraceChain["origin"],
  fromChainIndex: number | null,
): OpenChain {
  const chain: TTraceChain = {
    index,
    origin,
    fromChainIndex,
    callIds: [],
    tokens: [],
    lossMask: [],
    logprobs: [],
    logprobsComplete: true,
    promptLength: call.promptIds.length,
    spans: [],
  };
  const open = { chain, head: call };
  appendCall(open, call);
  return open;
}

/** Appends what `call`'s prompt adds to the stream (mask 0), then its sampled ids (mask 1). */
function appendCall(open: OpenChain, call: TGatewayCall): void {
  const { chain } = open;
  for (let i = chain.tokens.length; i < call.promptIds.length; i += 1) {
    chain.tokens.push(call.promptIds[i] as number);
    chain.lossMask.push(0);
    chain.logprobs.push(null);
  }
  const start = chain.tokens.length;
  const hasLogprobs = call.logprobs.length === call.responseIds.length;
  if (!hasLogprobs && call.responseIds.length > 0) chain.logprobsComplete = false;
  call.responseIds.forEach((id, i) => {
    chain.tokens.push(id);
    chain.lossMask.push(1);
    chain.logprobs.push(hasLogprobs ? (call.logprobs[i] as number) : null);
  });
  chain.callIds.push(call.id);
  chain.spans.push({
    callId: call.id,
    start,
    end: chain.tokens.length,
    backendId: call.backendId,
    weightVersion: call.weightVersion,
    finishReason: call.finishReason,
  });
  open.head = call;
}

function describeBreak(
  call: TGatewayCall,
  from: OpenChain,
  against: TGatewayCall,
  opened: OpenChain,
): TTraceBreak {
  const difference = firstStreamDifference(against, call.promptIds);
  // A call that repeats its whole parent (it only broke against a later head) breaks at its end.
  const position = difference ?? against.promptIds.length + against.responseIds.length;
  const region = position < against.promptIds.length ? "prompt" : "response";
  const expectedId = idAt(against, position);
  const actualId = call.promptIds[position] ?? null;
  const why =
    region === "prompt"
      ? "the harness changed earlier history (rewrote or truncated it)"
      : "the sampled answer was not sent back as sampled (re-rendered or edited)";
  return {
    callId: call.id,
    callSeq: call.seq,
    chainIndex: from.chain.index,
    newChainIndex: opened.chain.index,
    position,
    expectedId,
    actualId,
    region,
    message:
      `call ${call.seq} does not continue chain ${from.chain.index} at token ${position} ` +
      `(expected ${expectedId ?? "the end"}, found ${actualId ?? "the end of the prompt"}): ${why}; ` +
      `it starts chain ${opened.chain.index}`,
  };
}

function idAt(call: TGatewayCall, position: number): number | null {
  const { promptIds, responseIds } = call;
  if (position < promptIds.length) return promptIds[position] as number;
  return responseIds[position - promptIds.length] ?? null;
}
