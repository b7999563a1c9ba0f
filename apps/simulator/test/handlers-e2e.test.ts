// End-to-end rollouts of the math, code and stem handlers, per model family: RolloutEngine → real
// bubblewrap sandboxes → agent loop → routed pool → in-process simulator (scripted, per task,
// writing each family's own format) → graders. Every family runs every task (a few seconds each)
// and must earn the rewards the scripts were written for.
import type { ModelFamilyAdapter, ToolCall } from "@raas/inference";
import type { TJob, TTrajectoryExport } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TPolicyConfigInput } from "../src/index";
import { expressScripts } from "../src/index";
import { MODEL_FAMILIES } from "./support/model-families";
import { type RolloutFixture, readDataJson, readTasks, startRolloutFixture } from "./support/rollout-fixture";
import { expectRestartAfterSandboxKill } from "./support/sandbox-kill";

type Tasks = Record<string, { steps: { content?: string; toolCalls?: ToolCall[] }[] }>;
const policy = readDataJson<{ kind: "scripted"; tasks: Tasks }>("simulator/math-code-stem.policy.json");
const expected = readDataJson<Record<string, number>>("simulator/expected-rewards.json");
const KILL_TASK = "kill-001";
policy.tasks[KILL_TASK] = {
  steps: [{ toolCalls: [{ name: "python", arguments: { code: "import time\ntime.sleep(60)" } }] }],
};

// The policy leaves something unreadable where its solution should be: its own fault, graded 0.
const TRAPS: Record<string, string> = {
  "trap-fifo": "rm -f solution.py; mkfifo solution.py",
  "trap-huge": "python3 -c \"open('solution.py', 'w').write('#' * (17 * 1024 * 1024))\"",
};
for (const [taskId, command] of Object.entries(TRAPS)) {
  policy.tasks[taskId] = {
    steps: [
      { toolCalls: [{ name: "bash", arguments: { command } }] },
      { toolCalls: [{ name: "submit", arguments: {} }] },
    ],
  };
}

const BATCH = "e2e-batch";
const jobs = [
  ...readTasks("math.jsonl").map((payload) => ({ kind: "math", payload, batchId: BATCH })),
  ...readTasks("code.jsonl").map((payload) => ({ kind: "code", payload, batchId: BATCH })),
  ...readTasks("stem.jsonl").map((payload) => ({ kind: "stem", payload, batchId: BATCH })),
];
const taskIdOf = (job: { payload: unknown }) => (job.payload as { taskId: string }).taskId;

describe.each(MODEL_FAMILIES)("$name: math, code and stem rollouts end to end", (modelFamily) => {
  let family: ModelFamilyAdapter;
  let rewrites: string[] = [];
  let fixture: RolloutFixture;
  let finished: TJob[] = [];
  let wallMs = 0;

  beforeAll(async () => {
    family = await modelFamily.load();
    const expressed = expressScripts(family, policy.tasks);
    rewrites = expressed.rewrites;
    fixture = await startRolloutFixture({
      policy: { ...policy, tasks: expressed.tasks } as TPolicyConfigInput,
      config: { agent: { sampling: { temperature: 1, seed: 7 } } },
      family,
    });
    const startedAt = performance.now();
    const submitted = await fixture.engine.submitJobs(jobs);
    const waited = await fixture.engine.waitForJobs(
      submitted.map((s) => s.job.id),
      { timeoutMs: 600_000 },
    );
    wallMs = performance.now() - startedAt;
    finished = waited.jobs;
  }, 700_000);

  afterAll(async () => {
    await fixture?.close();
  });

  it("writes every scripted step in the family's format, saying which steps it had to rewrite", () => {
    // Every family writes the scripts as they are (DeepSeek V3 too: its words, then the calls as
    // its template renders them alone), words beside calls included.
    const withContentAndCalls = Object.values(policy.tasks).flatMap((script) =>
      script.steps.filter((step) => step.content && step.toolCalls?.length),
    );
    expect(withContentAndCalls.length).toBeGreaterThan(0);
    expect(rewrites).toEqual([]);
  });

  it("completes every job with the reward its script was written to earn", () => {
    const byTask = new Map(finished.map((job) => [taskIdOf(job), job]));
    const rewards = Object.fromEntries([...byTask].map(([taskId, job]) => [taskId, job.reward]));
    const failures = finished
      .filter((job) => job.status !== "completed")
      .map((job) => [job.kind, job.failure]);
    expect(failures).toEqual([]);
    expect(rewards).toEqual(
      Object.fromEntries(Object.entries(expected).map(([id, reward]) => [id, expect.closeTo(reward, 6)])),
    );
    const counts = { solved: 0, partial: 0, failed: 0 };
    for (const job of finished) {
      if (job.reward === 1) counts.solved += 1;
      else if (job.reward === 0) counts.failed += 1;
      else counts.partial += 1;
      expect(job.trainable).toBe(true);
    }
    expect(counts.solved).toBeGreaterThan(0);
    expect(counts.failed).toBeGreaterThan(0);
    const stageMs = (stage: string) => {
      const times = fixture.stageEvents.filter((e) => e.stage === stage).map((e) => e.durationMs);
      return Math.round(times.reduce((a, b) => a + b, 0) / Math.max(1, times.length));
    };
    console.info(
      `[handlers e2e ${modelFamily.name}] ${finished.length} jobs in ${Math.round(wallMs)} ms = ${(finished.length / (wallMs / 1000)).toFixed(2)} jobs/s; ` +
        `mean stage ms init ${stageMs("init")} run ${stageMs("run")} eval ${stageMs("eval")}; ${JSON.stringify(counts)}`,
    );
  });

  it("stores each turn's token ids, logprobs, backend and weight version, and tool calls", async () => {
    for (const job of finished) {
      const { turns, toolCalls } = await fixture.engine.getTrajectory(job.id);
      expect(turns.length).toBeGreaterThan(0);
      for (const [i, turn] of turns.entries()) {
        expect(turn.index).toBe(i);
        expect(turn.responseIds.length).toBeGreaterThan(0);
        expect(turn.logprobs).toHaveLength(turn.responseIds.length);
        expect(turn).toMatchObject({ backendId: "sim-0", weightVersion: "w-1", finishReason: "stop" });
        const previous = turns[i - 1];
        if (previous) {
          expect(turn.promptIds.slice(0, previous.promptIds.length + previous.responseIds.length)).toEqual([
            ...previous.promptIds,
            ...previous.responseIds,
          ]);
          expect(turn.cachedPromptTokens).toBeGreaterThan(0);
        }
      }
      const result = job.result as { tokenDrift: { isConsistent: boolean }; agent: { toolCalls: number } };
      expect(result.tokenDrift.isConsistent).toBe(true);
      expect(toolCalls).toHaveLength(result.agent.toolCalls); // the scripts make no tool-call mistakes
    }
  });

  it("exports every trajectory for training: the exact flat stream, loss mask and logprobs of the stored turns", async () => {
    const rows: TTrajectoryExport[] = [];
    let cursor: string | undefined;
    do {
      const page = await fixture.engine.exportBatchTrajectories(BATCH, {
        limit: 7,
        ...(cursor ? { cursor } : {}),
      });
      rows.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(rows.map((row) => row.jobId).sort()).toEqual(finished.map((job) => job.id).sort());
    expect(fixture.engine.stats().tokenBreaks).toBe(0);
    for (const row of rows) {
      const { turns } = await fixture.engine.getTrajectory(row.jobId);
      const last = turns.at(-1)!;
      expect(row).toMatchObject({
        tokenExact: true,
        tokenBreak: null,
        logprobsComplete: true,
        trainable: true,
      });
      expect(row.tokens).toEqual([...last.promptIds, ...last.responseIds]);
      expect(row.lossMask).toHaveLength(row.tokens.length);
      expect(row.logprobs).toHaveLength(row.tokens.length);
      expect(row.promptLength).toBe(turns[0]!.promptIds.length);
      for (const [i, turn] of turns.entries()) {
        const span = row.turns[i]!;
        expect(span).toMatchObject({
          index: i,
          start: turn.promptIds.length,
          weightVersion: "w-1",
          backendId: "sim-0",
        });
        expect(row.tokens.slice(0, span.start)).toEqual(turn.promptIds);
        expect(row.tokens.slice(span.start, span.end)).toEqual(turn.responseIds);
        expect(row.logprobs.slice(span.start, span.end)).toEqual(turn.logprobs);
      }
      // What the mask leaves out is the prompt, the tool observations and the chat template.
      const decode = (ids: readonly number[]) => family.tokenizer.decode(ids);
      const unmasked = decode(row.tokens.filter((_, i) => row.lossMask[i] === 0));
      expect(unmasked.startsWith(decode(turns[0]!.promptIds))).toBe(true);
      if (modelFamily.name === "qwen3") expect(unmasked.startsWith("<|im_start|>system")).toBe(true);
      const [first, second] = turns;
      if (first && second) {
        const observed = second.promptIds.slice(first.promptIds.length + first.responseIds.length);
        expect(observed.length).toBeGreaterThan(0);
        expect(unmasked).toContain(decode(observed));
      }
      expect(row.lossMask.filter((m) => m === 1)).toHaveLength(
        turns.reduce((sum, turn) => sum + turn.responseIds.length, 0),
      );
    }
  });

  it("runs the model's tool calls in the sandbox and grades what they produced", async () => {
    const math = finished.find((job) => taskIdOf(job) === "math-001") as TJob;
    const { toolCalls } = await fixture.engine.getTrajectory(math.id);
    expect(toolCalls[0]).toMatchObject({ name: "python", isError: false });
    expect(toolCalls[0]?.output.trim()).toBe("391");
    expect(math.result).toMatchObject({
      extracted: "391",
      isCorrect: true,
      pythonVersion: expect.stringMatching(/^3\./),
    });

    const code = finished.find((job) => taskIdOf(job) === "code-007") as TJob;
    expect(code.result).toMatchObject({
      rewardMode: "fraction",
      passed: 2,
      total: 3,
      pythonVersion: expect.stringMatching(/^3\./),
    });
    const statuses = (code.result as { cases: { status: string }[] }).cases.map((c) => c.status);
    expect(statuses).toEqual(["passed", "passed", "timeout"]);

    const noFile = finished.find((job) => taskIdOf(job) === "code-008") as TJob;
    expect(noFile).toMatchObject({ reward: 0, result: { solutionFound: false } });
  });

  it("closes every sandbox it opened (INIT/RUN and fresh EVAL sandboxes)", () => {
    const codeJobs = jobs.filter((j) => j.kind === "code").length - 1; // code-008 writes no file
    expect(fixture.sandboxes).toHaveLength(jobs.length + codeJobs);
    expect(fixture.sandboxes.every((s) => s.state === "closed")).toBe(true);
  });

  // Sandbox kills and unreadable solutions are the sandbox's and the grader's concern, the same
  // for every family: the reference family runs them.
  if (modelFamily.isReference) {
    it("restarts a job whose sandbox is killed mid-RUN from INIT, its killed sandbox torn down", async () => {
      const before = fixture.sandboxes.length;
      const { job } = await fixture.engine.submitJob({
        kind: "math",
        payload: {
          taskId: KILL_TASK,
          problem: "Wait for it.",
          answer: "1",
          agent: { toolTimeoutMs: 120_000 },
        },
      });
      // Killed while its scripted `sleep 60` runs: infrastructure, not the policy's fault, so the
      // job starts again from INIT (attempt 2).
      await expectRestartAfterSandboxKill(fixture, job.id, before);
    });
    it("grades an unreadable, blocking or oversized solution as the policy's failure (reward 0), never infrastructure", async () => {
      const submitted = await fixture.engine.submitJobs(
        Object.keys(TRAPS).map((taskId) => ({
          kind: "code",
          payload: {
            taskId,
            prompt: "Print twice the input.",
            tests: { kind: "stdio", cases: [{ input: "2\n", output: "4\n" }] },
          },
        })),
      );
      const { jobs: done } = await fixture.engine.waitForJobs(
        submitted.map((s) => s.job.id),
        { timeoutMs: 120_000 },
      );
      for (const job of done) {
        expect(job, (job.payload as { taskId: string }).taskId).toMatchObject({
          status: "completed",
          reward: 0,
          trainable: true,
        });
        expect((job.result as { solutionFound: boolean }).solutionFound).toBe(false);
      }
    });
  }
});
