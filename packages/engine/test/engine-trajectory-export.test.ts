// Real jobs through the engine (memory adapters) whose RUN is the real agent loop over the engine's
// test doubles (a one-id-per-character chat format, a scripted inference pool, an echo toolbox):
// the export of every stored trajectory is checked against the stored turns.
import { failureOf, type TTrajectoryExport, type TTurn } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../src/agent/agent-loop";
import type { AgentToolbox } from "../src/agent/agent-loop.types";
import { HandlerRegistry } from "../src/handler-registry";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import type { ChatFormat, ParsedChatResponse } from "../src/ports/chat-format.port";
import type { InferencePool } from "../src/ports/inference-pool.port";
import type { TaskHandler } from "../src/ports/task-handler.port";
import { RolloutEngine } from "../src/rollout-engine";

const encode = (text: string) => [...text].map((c) => c.charCodeAt(0));
const decode = (ids: readonly number[]) => String.fromCharCode(...ids);
const chatFormat: ChatFormat = {
  family: "fake",
  stopTokenIds: [0],
  renderInitialPrompt: (input) => encode(`S:${input.systemPrompt}|U:${input.userMessage}|A:`),
  parseResponse: (ids) => JSON.parse(decode(ids)) as ParsedChatResponse,
  renderObservations: ({ observations }) => encode(`|O:${observations.map((o) => o.content).join(",")}|A:`),
  decode,
};

/** `calls` bash calls, then submit; logprobs are -position/1000 so alignment is checkable. */
function scriptedInference(calls: number): InferencePool {
  const turnsByJob = new Map<string, number>();
  return {
    releaseJob: () => undefined,
    async generate(request) {
      const turn = turnsByJob.get(request.jobId) ?? 0;
      turnsByJob.set(request.jobId, turn + 1);
      const call =
        turn < calls
          ? { name: "bash", arguments: { command: `ls ${turn}` } }
          : { name: "submit", arguments: {} };
      const parsed: ParsedChatResponse = {
        thinking: null,
        content: `t${turn}`,
        toolCalls: [call],
        callErrors: [],
      };
      const responseIds = encode(JSON.stringify(parsed));
      return {
        responseIds,
        logprobs: responseIds.map((_, i) => -(request.promptIds.length + i) / 1000),
        finishReason: "stop",
        backendId: "fake-0",
        weightVersion: `w${turn}`,
        cachedPromptTokens: request.promptIds.length > 0 ? 2 : 0,
        latencyMs: 1,
      };
    },
  };
}

const toolbox: AgentToolbox = {
  specs: [{ name: "bash", description: "run", parameters: { type: "object" } }],
  async call(_name, args) {
    return {
      output: `ran ${String(args.command)}`,
      exitCode: 0,
      isError: false,
      truncated: false,
      timedOut: false,
      durationMs: 1,
    };
  },
};

const ZPayload = z.object({ calls: z.number().int().min(0).default(2), drift: z.boolean().default(false) });
type Payload = z.infer<typeof ZPayload>;

const agentHandler: TaskHandler<Payload, null, { turns: number }> = {
  kind: "agent",
  payloadSchema: ZPayload,
  init: async () => null,
  async run(ctx) {
    if (ctx.payload.drift) {
      // A loop that re-tokenized its history: the second prompt does not extend the first turn.
      const base = {
        logprobs: [-1],
        backendId: "fake-0",
        weightVersion: "w0",
        cachedPromptTokens: 0,
        latencyMs: 1,
        finishReason: "stop",
        text: null,
      };
      ctx.record.turn({ ...base, index: 0, promptIds: [1, 2, 3], responseIds: [4] });
      ctx.record.turn({ ...base, index: 1, promptIds: [1, 2, 3, 5, 6], responseIds: [7] });
      return { turns: 2 };
    }
    const result = await runAgentLoop({
      jobId: ctx.job.id,
      inference: scriptedInference(ctx.payload.calls),
      chatFormat,
      toolbox,
      systemPrompt: "sys",
      userMessage: `task ${ctx.job.id}`,
      recorder: ctx.record,
      signal: ctx.signal,
    });
    return { turns: result.turns.length };
  },
  eval: async (ctx) => ({ reward: ctx.run.turns / 10 }),
};

let engine: RolloutEngine | undefined;
afterEach(async () => {
  await engine?.stop({ graceMs: 100 });
  engine = undefined;
});

async function startEngine(): Promise<RolloutEngine> {
  engine = new RolloutEngine({
    store: new MemoryJobStore(),
    queue: new MemoryJobQueue(),
    handlers: new HandlerRegistry().register(agentHandler),
  });
  await engine.start();
  return engine;
}

/** Every invariant a trainer relies on, checked against the stored turns. */
function expectFaithful(row: TTrajectoryExport, turns: TTurn[]): void {
  expect(row.lossMask).toHaveLength(row.tokens.length);
  expect(row.logprobs).toHaveLength(row.tokens.length);
  // The scripted backend's versions (`w0`, …) are no policy numbers: every token is -1.
  expect(row.versions).toEqual(row.tokens.map(() => -1));
  expect(row.turns).toHaveLength(turns.length);
  const last = turns.at(-1)!;
  expect(row.tokens).toEqual([...last.promptIds, ...last.responseIds]);
  expect(row.promptLength).toBe(turns[0]!.promptIds.length);
  for (const [i, turn] of turns.entries()) {
    const span = row.turns[i]!;
    expect(span).toMatchObject({ index: turn.index, start: turn.promptIds.length, weightVersion: `w${i}` });
    expect(row.tokens.slice(0, span.start)).toEqual(turn.promptIds);
    expect(row.tokens.slice(span.start, span.end)).toEqual(turn.responseIds);
    expect(row.logprobs.slice(span.start, span.end)).toEqual(turn.logprobs);
    const previous = turns[i - 1];
    // Token-in/token-out: this prompt begins with the previous prompt followed by its response.
    if (previous) {
      const carried = previous.promptIds.length + previous.responseIds.length;
      expect(turn.promptIds.slice(0, carried)).toEqual([...previous.promptIds, ...previous.responseIds]);
      expect(row.lossMask.slice(carried, span.start).every((m) => m === 0)).toBe(true);
    }
  }
  const sampled = turns.reduce((sum, turn) => sum + turn.responseIds.length, 0);
  expect(row.lossMask.filter((m) => m === 1)).toHaveLength(sampled);
  row.lossMask.forEach((mask, i) => {
    expect(row.logprobs[i] === null).toBe(mask === 0);
  });
}

describe("trajectory export through the engine", () => {
  it("exports every job of a batch page by page, token-exact, with mask and logprobs aligned to the stored turns", async () => {
    const rollout = await startEngine();
    const submitted = await rollout.submitJobs([
      { kind: "agent", batchId: "b1", groupId: "g1", payload: { calls: 0 }, metadata: { step: 7 } },
      { kind: "agent", batchId: "b1", groupId: "g1", payload: { calls: 2 } },
      { kind: "agent", batchId: "b1", groupId: "g2", payload: { calls: 4 } },
      { kind: "agent", batchId: "b2", payload: { calls: 1 } },
    ]);
    const ids = submitted.map((s) => s.job.id);
    expect((await rollout.waitForJobs(ids, { timeoutMs: 10_000 })).done).toBe(true);

    const rows: TTrajectoryExport[] = [];
    let cursor: string | undefined;
    do {
      const page = await rollout.exportBatchTrajectories("b1", { limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.items.length).toBeLessThanOrEqual(2);
      rows.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(rows.map((row) => row.jobId).sort()).toEqual(ids.slice(0, 3).sort());

    for (const row of rows) {
      const { turns } = await rollout.getTrajectory(row.jobId);
      expect(row).toMatchObject({
        status: "completed",
        trainable: true,
        tokenExact: true,
        tokenBreak: null,
        batchId: "b1",
      });
      expect(row.reward).toBeCloseTo(turns.length / 10, 9);
      expect(row).toEqual(await rollout.exportTrajectory(row.jobId));
      expectFaithful(row, turns);
    }
    expect(rows.find((row) => row.jobId === ids[0])?.metadata).toEqual({ step: 7 });
    expect(rows.map((row) => row.turns.length).sort()).toEqual([1, 3, 5]);
    expect(rollout.stats().tokenBreaks).toBe(0);
  });

  it("flags a drifting trajectory when it is stored and exports it as not exact, cut before the break", async () => {
    const rollout = await startEngine();
    const { job } = await rollout.submitJob({ kind: "agent", payload: { drift: true } });
    await rollout.waitForJobs([job.id], { timeoutMs: 10_000 });
    expect(rollout.stats().tokenBreaks).toBe(1);
    const row = await rollout.exportTrajectory(job.id);
    expect(row).toMatchObject({
      tokenExact: false,
      tokens: [1, 2, 3, 4],
      lossMask: [0, 0, 0, 1],
      turnCount: 2,
      tokenBreak: { kind: "prefix-mismatch", turnIndex: 1, position: 3, expectedId: 4, actualId: 5 },
    });
    expect(row.turns).toHaveLength(1);
  });

  it("answers NOT_FOUND for an unknown job or batch and VALIDATION_FAILED for a bad page size", async () => {
    const rollout = await startEngine();
    const code = (promise: Promise<unknown>) =>
      promise.then(
        () => "resolved",
        (error: unknown) => {
          const failure = failureOf(error);
          return failure?.kind === "request" ? failure.code : String(error);
        },
      );
    expect(await code(rollout.exportTrajectory("job_nope"))).toBe("NOT_FOUND");
    expect(await code(rollout.exportBatchTrajectories("no-such-batch", { limit: 10 }))).toBe("NOT_FOUND");
    expect(await code(rollout.exportBatchTrajectories("b", { limit: 0 }))).toBe("VALIDATION_FAILED");
    expect(await code(rollout.exportBatchTrajectories("b", { limit: 101 }))).toBe("VALIDATION_FAILED");
  });
});
