// Pure figures of the harnesses bench: one arm's task samples (a recipe's jobs, or the built-in
// agent loop's) summarised into a table row. No I/O: the bench gathers the samples.
import type { BenchRow } from "../bench.types";
import { mean, median } from "../stats";

/** What one model call of a task cost and carried. */
export interface CallSample {
  promptTokens: number;
  sampledTokens: number;
  /**
   * The gateway's own time on the call (render, tokenize, parse, answer; the record's `overheadMs`),
   * in ms; null for the built-in loop, whose calls do not go through the gateway.
   */
  gatewayOverheadMs: number | null;
}

/** How a task's calls chained into training streams. */
export interface ChainSample {
  /**
   * True when every chain the task's calls form is token-exact (no split): traces a trainer can use
   * as they are. A CLI's side conversation (opencode's title call) is an exact chain of its own.
   */
  isCertified: boolean;
  /** Chains the calls form: 1, plus one per split, fork or conversation of its own (a title call, a sub-agent). */
  chainCount: number;
  /** Chains that start where another broke (the harness rewrote its history or re-rendered an answer). */
  splitChains: number;
  /** Where those breaks were: `prompt` (history rewritten) or `response` (answer not sent back as sampled). */
  breakRegions: string[];
}

/** One task solved once by one arm. */
export interface TaskSample {
  taskId: string;
  /** Failure kind when the job did not complete (infrastructure, not a reward of 0); null when it did. */
  failure: string | null;
  reward: number | null;
  /** Time inside INIT + RUN + EVAL, in ms (queue time left out; installs are done before). */
  wallMs: number;
  /** Time inside RUN (the agent loop), in ms. */
  runMs: number;
  calls: CallSample[];
  chains: ChainSample;
}

const round = (value: number, digits: number) =>
  Number.isFinite(value) ? Number(value.toFixed(digits)) : null;
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/**
 * The chains turns recorded token in, token out form: a turn continues the chain when its prompt
 * repeats the turn before it and that turn's sampled ids, token for token; any other starts one.
 */
export function turnChainCount(
  turns: ReadonlyArray<{ promptIds: readonly number[]; responseIds: readonly number[] }>,
): number {
  let chains = turns.length === 0 ? 0 : 1;
  for (let at = 1; at < turns.length; at += 1) {
    const before = turns[at - 1]!;
    const prompt = turns[at]!.promptIds;
    const expected = [...before.promptIds, ...before.responseIds];
    if (prompt.length < expected.length || expected.some((id, index) => prompt[index] !== id)) chains += 1;
  }
  return chains;
}

/** The figures of one arm over its tasks; failed jobs are counted apart and left out of the rest. */
export function summarizeArm(name: string, samples: readonly TaskSample[]): BenchRow {
  const done = samples.filter((sample) => sample.failure === null);
  const calls = done.flatMap((sample) => sample.calls);
  const overheads = calls.flatMap((call) =>
    call.gatewayOverheadMs === null ? [] : [call.gatewayOverheadMs],
  );
  const sampledOf = (sample: TaskSample) => sum(sample.calls.map((call) => call.sampledTokens));
  const certified = done.filter((sample) => sample.chains.isCertified);
  const sampledTokens = sum(done.map(sampledOf));
  return {
    name,
    tasks: samples.length,
    resolved: done.filter((sample) => sample.reward === 1).length,
    failures: samples.length - done.length,
    callsPerTask: round(calls.length / done.length, 2),
    gatewayOverheadP50Ms: overheads.length === 0 ? null : round(median(overheads), 2),
    promptTokensPerCall: round(mean(calls.map((call) => call.promptTokens)), 0),
    certifiedJobShare: round(certified.length / done.length, 2),
    certifiedTokenShare: round(sum(certified.map(sampledOf)) / sampledTokens, 2),
    splitChainRate: round(done.filter((sample) => sample.chains.splitChains > 0).length / done.length, 2),
    splitChainsPerTask: round(mean(done.map((sample) => sample.chains.splitChains)), 2),
    chainsPerTask: round(mean(done.map((sample) => sample.chains.chainCount)), 2),
    wallP50S: round(median(done.map((sample) => sample.wallMs)) / 1_000, 2),
    runP50S: round(median(done.map((sample) => sample.runMs)) / 1_000, 2),
  };
}

/** Counts of break regions over an arm's tasks, e.g. `{ response: 3 }`. */
export function breakRegionCounts(samples: readonly TaskSample[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const region of samples.flatMap((sample) => sample.chains.breakRegions))
    counts[region] = (counts[region] ?? 0) + 1;
  return counts;
}

/**
 * The gateway's own time per call by the call's place in its task (p50 over tasks, in ms): a
 * call that continues a chain only renders and tokenizes what is new, a first call or one after a
 * break the whole history. Empty for the built-in loop.
 */
export function gatewayOverheadByCallIndex(samples: readonly TaskSample[]): Array<number | null> {
  const byIndex: number[][] = [];
  for (const sample of samples.filter((candidate) => candidate.failure === null))
    sample.calls.forEach((call, index) => {
      if (call.gatewayOverheadMs === null) return;
      byIndex[index] = [...(byIndex[index] ?? []), call.gatewayOverheadMs];
    });
  return Array.from(byIndex, (values) => (values === undefined ? null : round(median(values), 2)));
}
