// A model family named nowhere in the code, given only as its tokenizer directory (Gemma 3's,
// from a registry package): the simulator serves it with its own chat template, the math handler
// renders and parses with the same files, and rollouts are graded as for any family.
import { loadDirectoryModelFamily, type ModelFamilyAdapter } from "@raas/inference";
import type { TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSimulatorModelFamily } from "../src/simulator-model-family";
import { tokenizerDir } from "./support/model-families";
import { type RolloutFixture, readTasks, startRolloutFixture } from "./support/rollout-fixture";

const [problem] = readTasks<{ taskId: string; problem: string; answer: string }>("math.jsonl");

describe("a model family given only as a tokenizer directory (Gemma 3)", () => {
  const directory = tokenizerDir("gemma3");
  let family: ModelFamilyAdapter;
  let fixture: RolloutFixture;
  let jobs: TJob[] = [];

  beforeAll(async () => {
    family = await loadSimulatorModelFamily({ kind: "tokenizer-dir", directory });
    const right = {
      steps: [{ thinking: "Multiplying.", content: `The answer is $\\boxed{${problem?.answer}}$.` }],
    };
    const wrong = { steps: [{ content: "The answer is $\\boxed{-1}$." }] };
    fixture = await startRolloutFixture({
      policy: { kind: "scripted", tasks: { "gemma-right": right, "gemma-wrong": wrong } },
      config: { agent: { sampling: { temperature: 1, seed: 7 } } },
      family,
    });
    const submitted = await fixture.engine.submitJobs(
      ["gemma-right", "gemma-wrong"].map((taskId) => ({ kind: "math", payload: { ...problem, taskId } })),
    );
    jobs = (
      await fixture.engine.waitForJobs(
        submitted.map((s) => s.job.id),
        { timeoutMs: 120_000 },
      )
    ).jobs;
  }, 180_000);

  afterAll(async () => {
    await fixture?.close();
  });

  it("says which capabilities its template lacks instead of guessing them", async () => {
    const { probe } = await loadDirectoryModelFamily(directory);
    expect(probe.missing.map((gap) => gap.capability)).toEqual(
      expect.arrayContaining(["tool-definitions", "tool-call-format", "reasoning-format"]),
    );
  });

  it("grades the answer the model writes in its content: right earns 1, wrong 0", async () => {
    const byTask = Object.fromEntries(jobs.map((job) => [(job.payload as { taskId: string }).taskId, job]));
    expect(byTask["gemma-right"]).toMatchObject({ status: "completed", reward: 1, trainable: true });
    expect(byTask["gemma-right"]?.result).toMatchObject({ extracted: problem?.answer, isCorrect: true });
    expect(byTask["gemma-wrong"]).toMatchObject({ status: "completed", reward: 0, trainable: true });
    for (const job of jobs) {
      const { turns } = await fixture.engine.getTrajectory(job.id);
      expect(turns).toHaveLength(1);
      const [turn] = turns;
      // Gemma 3's own template: the system prompt opens the first user turn; the model answers in `model` turns.
      const prompt = family.tokenizer.decode(turn?.promptIds ?? []);
      expect(prompt).toMatch(/^<bos><start_of_turn>user\n[\s\S]*Task id: gemma-/);
      expect(prompt.endsWith("<start_of_turn>model\n")).toBe(true);
      expect(turn?.responseIds.at(-1)).toBe(family.endOfTurnId);
      expect(turn?.finishReason).toBe("stop");
      expect(await fixture.engine.exportTrajectory(job.id)).toMatchObject({ tokenExact: true });
    }
  });
});
