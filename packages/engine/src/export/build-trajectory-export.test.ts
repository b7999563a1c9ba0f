import { type TJob, type TToolCall, type TTurn, ZTrajectoryExport } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { buildTrajectoryExport } from "./build-trajectory-export";

const job: TJob = {
  id: "job_1",
  jobKey: null,
  kind: "math",
  status: "completed",
  stage: "eval",
  priority: 0,
  groupId: "g1",
  batchId: "b1",
  payload: {},
  metadata: { run: "r", step: 3 },
  ownerId: null,
  policyId: "default",
  timeoutsMs: null,
  failure: null,
  reward: 1,
  trainable: true,
  result: null,
  timings: { queueMs: 1, initMs: 2, runMs: 3, evalMs: 4 },
  attempts: 0,
  createdAtMs: 0,
  updatedAtMs: 0,
  finishedAtMs: 10,
};

function turn(index: number, promptIds: number[], responseIds: number[], logprobs?: number[]): TTurn {
  return {
    jobId: job.id,
    index,
    promptIds,
    responseIds,
    logprobs: logprobs ?? responseIds.map((id) => -id / 100),
    backendId: `b${index}`,
    weightVersion: `w${index}`,
    cachedPromptTokens: index,
    latencyMs: 5,
    finishReason: "stop",
    text: null,
    createdAtMs: index,
  };
}

// Prompt [1 2 3] → response [10 11]; observation [4 5]; response [12]; observation [6]; response [13 14].
const exact = [
  turn(0, [1, 2, 3], [10, 11]),
  turn(1, [1, 2, 3, 10, 11, 4, 5], [12]),
  turn(2, [1, 2, 3, 10, 11, 4, 5, 12, 6], [13, 14]),
];

describe("buildTrajectoryExport", () => {
  it("flattens exact turns into one stream with a loss mask and aligned logprobs", () => {
    const row = buildTrajectoryExport(job, [exact[2]!, exact[0]!, exact[1]!]);
    expect(ZTrajectoryExport.parse(row)).toEqual(row);
    expect(row.tokens).toEqual([1, 2, 3, 10, 11, 4, 5, 12, 6, 13, 14]);
    expect(row.lossMask).toEqual([0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1]);
    expect(row.logprobs).toEqual([null, null, null, -0.1, -0.11, null, null, -0.12, null, -0.13, -0.14]);
    expect(row).toMatchObject({
      jobId: "job_1",
      batchId: "b1",
      groupId: "g1",
      kind: "math",
      status: "completed",
      reward: 1,
      trainable: true,
      failureKind: null,
      failureLabel: null,
      promptLength: 3,
      turnCount: 3,
      tokenExact: true,
      tokenBreak: null,
      logprobsComplete: true,
      timings: job.timings,
      metadata: { run: "r", step: 3 },
    });
    expect(row.turns.map((span) => [span.index, span.start, span.end, span.weightVersion])).toEqual([
      [0, 3, 5, "w0"],
      [1, 7, 8, "w1"],
      [2, 9, 11, "w2"],
    ]);
    for (const span of row.turns) {
      const stored = exact[span.index]!;
      expect(row.tokens.slice(span.start, span.end)).toEqual(stored.responseIds);
      expect(row.tokens.slice(0, span.start)).toEqual(stored.promptIds);
    }
  });

  it("carries each turn's sampling parameters, null for a turn stored without them", () => {
    const greedy = { temperature: 0, topP: 1, topK: null, seed: null, maxTokens: 64 };
    const sampled = { temperature: 0.6, topP: 0.95, topK: 20, seed: 7, maxTokens: 512 };
    const row = buildTrajectoryExport(job, [
      { ...exact[0]!, sampling: greedy },
      { ...exact[1]!, sampling: sampled },
      exact[2]!,
    ]);
    expect(ZTrajectoryExport.parse(row)).toEqual(row);
    expect(row.turns.map((span) => span.sampling)).toEqual([greedy, sampled, null]);
  });

  it("stops at a re-tokenized prompt and says where it breaks", () => {
    const drifted = turn(2, [1, 2, 3, 10, 99, 4, 5, 12, 6], [13]);
    const row = buildTrajectoryExport(job, [exact[0]!, exact[1]!, drifted]);
    expect(row.tokenExact).toBe(false);
    expect(row.tokenBreak).toMatchObject({
      kind: "prefix-mismatch",
      turnIndex: 2,
      position: 4,
      expectedId: 11,
      actualId: 99,
    });
    expect(row.tokenBreak?.message).toMatch(/turn 2's prompt differs .* at token 4/);
    expect(row.tokens).toEqual([1, 2, 3, 10, 11, 4, 5, 12]);
    expect(row.turns.map((span) => span.index)).toEqual([0, 1]);
    expect(row.turnCount).toBe(3);
  });

  it("flags a prompt shorter than the previous prompt + response, a gap, and a logprob miscount", () => {
    const short = buildTrajectoryExport(job, [exact[0]!, turn(1, [1, 2, 3, 10], [12])]);
    expect(short.tokenBreak).toMatchObject({
      kind: "prefix-mismatch",
      position: 4,
      expectedId: 11,
      actualId: null,
    });
    const gap = buildTrajectoryExport(job, [exact[0]!, exact[2]!]);
    expect(gap.tokenBreak).toMatchObject({ kind: "missing-turn", turnIndex: 2, position: 5 });
    expect(gap.tokens).toEqual([1, 2, 3, 10, 11]);
    const noFirst = buildTrajectoryExport(job, [exact[1]!]);
    expect(noFirst).toMatchObject({
      tokenExact: false,
      tokens: [],
      tokenBreak: { kind: "missing-turn", turnIndex: 1 },
    });
    const miscount = buildTrajectoryExport(job, [exact[0]!, turn(1, exact[1]!.promptIds, [12, 13], [-1])]);
    expect(miscount.tokenBreak).toMatchObject({ kind: "logprob-count", turnIndex: 1, position: 5 });
  });

  it("keeps a turn without logprobs exact, with null logprobs and logprobsComplete false", () => {
    const row = buildTrajectoryExport(job, [exact[0]!, turn(1, exact[1]!.promptIds, [12], [])]);
    expect(row.tokenExact).toBe(true);
    expect(row.logprobsComplete).toBe(false);
    expect(row.logprobs.slice(5)).toEqual([null, null, null]);
    expect(row.lossMask.slice(5)).toEqual([0, 0, 1]);
  });

  it("exports a job without turns as an empty exact stream with its failure kind", () => {
    const failed: TJob = {
      ...job,
      status: "failed",
      reward: null,
      trainable: false,
      failure: { kind: "sandbox", stage: "init", message: "no bwrap" },
    };
    expect(buildTrajectoryExport(failed, [])).toMatchObject({
      tokens: [],
      lossMask: [],
      logprobs: [],
      promptLength: 0,
      turns: [],
      turnCount: 0,
      tokenExact: true,
      failureKind: "sandbox",
      failureLabel: null,
      trainable: false,
      reward: null,
    });
    // A grade the canaries voided: the trainer sees why the reward is 0.
    const tampered = {
      ...failed,
      status: "failed" as const,
      failure: {
        kind: "agent" as const,
        stage: "eval" as const,
        message: "tampered: …",
        label: "tampered" as const,
      },
      reward: 0,
      trainable: true,
    };
    expect(buildTrajectoryExport(tampered, [])).toMatchObject({
      failureKind: "agent",
      failureLabel: "tampered",
      trainable: true,
      reward: 0,
    });
  });

  it("shows each turn's per-token weight versions as stream offsets, split where a weight sync continued a turn", () => {
    // Turn 1 was stopped by an abort-and-continue weight sync after 2 of its 5 tokens (version 7)
    // and continued under version 8.
    const continued: TTurn = {
      ...turn(1, [1, 2, 3, 10, 11, 4, 5], [12, 15, 16, 17, 18]),
      weightVersion: "8",
      weightVersionSpans: [
        { start: 0, end: 2, weightVersion: "7" },
        { start: 2, end: 5, weightVersion: "8" },
      ],
    };
    const row = buildTrajectoryExport(job, [
      { ...exact[0]!, weightVersion: "7", weightVersionSpans: null },
      continued,
    ]);
    expect(ZTrajectoryExport.parse(row)).toEqual(row);
    expect(row.tokens).toEqual([1, 2, 3, 10, 11, 4, 5, 12, 15, 16, 17, 18]);
    expect(row.turns.map((t) => t.weightVersionSpans)).toEqual([
      [{ start: 3, end: 5, weightVersion: "7" }],
      [
        { start: 7, end: 9, weightVersion: "7" },
        { start: 9, end: 12, weightVersion: "8" },
      ],
    ]);
    // Per-token versions a trainer masks with: exactly the sampled positions, each with its version.
    const versionAt = new Map(
      row.turns.flatMap((t) =>
        t.weightVersionSpans.flatMap((span) =>
          Array.from(
            { length: span.end - span.start },
            (_, i) => [span.start + i, span.weightVersion] as const,
          ),
        ),
      ),
    );
    const sampled = row.lossMask.flatMap((bit, i) => (bit === 1 ? [i] : []));
    expect([...versionAt.keys()]).toEqual(sampled);
    expect(sampled.map((i) => versionAt.get(i))).toEqual(["7", "7", "7", "7", "8", "8", "8"]);
  });

  it("gives every token an integer policy version: -1 off the sampled tokens, two versions across a sync", () => {
    // Turn 0 under version 3; a weight sync to 4 stops turn 1 after one token and continues it;
    // turn 2 runs under 4. Prompt and observation (tool result) tokens were generated by no policy.
    const row = buildTrajectoryExport(job, [
      { ...exact[0]!, weightVersion: "3" },
      {
        ...turn(1, [1, 2, 3, 10, 11, 4, 5], [12, 15]),
        weightVersion: "4",
        weightVersionSpans: [
          { start: 0, end: 1, weightVersion: "3" },
          { start: 1, end: 2, weightVersion: "4" },
        ],
      },
      { ...turn(2, [1, 2, 3, 10, 11, 4, 5, 12, 15, 6], [13, 14]), weightVersion: "4" },
    ]);
    expect(ZTrajectoryExport.parse(row)).toEqual(row);
    expect(row.tokens).toEqual([1, 2, 3, 10, 11, 4, 5, 12, 15, 6, 13, 14]);
    expect(row.lossMask).toEqual([0, 0, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1]);
    expect(row.versions).toEqual([-1, -1, -1, 3, 3, -1, -1, 3, 4, -1, 4, 4]);
    // The same versions the spans carry, as integers, exactly where the loss mask is 1.
    for (const span of row.turns.flatMap((t) => t.weightVersionSpans)) {
      expect(row.versions.slice(span.start, span.end).map(String)).toEqual(
        Array(span.end - span.start).fill(span.weightVersion),
      );
    }
    expect(row.versions.map((v) => (v === -1 ? 0 : 1))).toEqual(row.lossMask);
  });

  it("versions a token -1 when its weight version is null or no integer, and stops with the stream", () => {
    const row = buildTrajectoryExport(job, [
      { ...exact[0]!, weightVersion: null },
      exact[1]!,
      { ...turn(2, [1, 2, 3, 10, 99], [13]), weightVersion: "5" },
    ]);
    expect(row.tokenExact).toBe(false);
    expect(row.tokens).toEqual([1, 2, 3, 10, 11, 4, 5, 12]);
    // Turn 0 reported no version, turn 1 a free-form one ("w1"); the broken turn 2 is not exported.
    expect(row.versions).toEqual(Array(8).fill(-1));
    expect(buildTrajectoryExport(job, []).versions).toEqual([]);
  });

  it("aligns the verifier's and the tools' turn rewards to their turns' token spans", () => {
    const graded: TJob = {
      ...job,
      turnRewards: [
        { turn: 2, reward: 1, label: "fixed" },
        { turn: 0, reward: 0.5, label: null },
        { turn: 2, reward: -0.1, label: "slow" },
      ],
    };
    const call = (turnIndex: number, index: number, reward?: number): TToolCall => ({
      jobId: job.id,
      turnIndex,
      index,
      name: index === 0 ? "bash" : "query",
      arguments: {},
      output: "",
      exitCode: 0,
      durationMs: 1,
      isError: false,
      ...(reward !== undefined ? { reward } : {}),
      createdAtMs: 0,
    });
    const row = buildTrajectoryExport(graded, exact, [call(1, 1, 0.2), call(1, 0), call(2, 0, 0.3)]);
    expect(ZTrajectoryExport.parse(row)).toEqual(row);
    expect(
      row.turnRewards.map((r) => [r.turn, r.source, r.reward, r.label, r.toolCallIndex, r.start, r.end]),
    ).toEqual([
      [0, "verifier", 0.5, null, null, 3, 5],
      [1, "tool", 0.2, "query", 1, 7, 8],
      [2, "verifier", 1, "fixed", null, 9, 11],
      [2, "verifier", -0.1, "slow", null, 9, 11],
      [2, "tool", 0.3, "bash", 0, 9, 11],
    ]);
    for (const entry of row.turnRewards) {
      expect(row.tokens.slice(entry.start ?? 0, entry.end ?? 0)).toEqual(exact[entry.turn]!.responseIds);
    }
  });

  it("keeps a reward of a turn cut at a token break on its turn, with no span", () => {
    const drifted = turn(2, [1, 2, 3, 10, 99, 4, 5, 12, 6], [13]);
    const row = buildTrajectoryExport({ ...job, turnRewards: [{ turn: 2, reward: 1, label: null }] }, [
      exact[0]!,
      exact[1]!,
      drifted,
    ]);
    expect(row.turnRewards).toEqual([
      { turn: 2, reward: 1, source: "verifier", label: null, toolCallIndex: null, start: null, end: null },
    ]);
  });

  it("exports a job stored without turn rewards (an older row) with none", () => {
    expect(buildTrajectoryExport(job, exact).turnRewards).toEqual([]);
  });
});
