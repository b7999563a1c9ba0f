// A plain `jobs` batch — groups of identical math jobs sent without any sampling seed — against the
// simulator (the labelled test double for the model) with a 0.6 coin flip per trajectory, in real
// bubblewrap sandboxes: the simulator samples unseeded requests afresh, as a real engine does, so
// members of a group disagree now and then and some groups carry a learning signal.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenRest } from "./support/http-calls";
import { coinFlipMathPolicy, type SimulatedServer, startSimulatedServer } from "./support/simulated-server";

const DATA = fileURLToPath(new URL("../../../packages/handlers/data/", import.meta.url));
const TRAINER = "jobs-batch-unseeded";
const TASKS = ["math-001", "math-002", "math-003", "math-004"];
const GROUP_SIZE = 4;

describe("a plain jobs batch without seeds", () => {
  let server: SimulatedServer;

  const rest = tokenRest(() => server.url, TRAINER);

  beforeAll(async () => {
    // Each trajectory follows its task's script (right) with probability 0.6, else a wrong boxed answer.
    const policy = coinFlipMathPolicy(0.6, TASKS);
    server = await startSimulatedServer({ policy, seed: 9, trainerToken: TRAINER });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("yields groups whose members' rewards differ", async () => {
    const payloads = new Map(
      readFileSync(join(DATA, "math.jsonl"), "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as { taskId: string })
        .map((payload) => [payload.taskId, payload]),
    );
    // No `agent.seed` anywhere: every member of a group sends the very same request.
    const jobs = TASKS.flatMap((taskId) =>
      Array.from({ length: GROUP_SIZE }, (_, slot) => ({
        kind: "math",
        payload: payloads.get(taskId),
        groupId: `unseeded-${taskId}`,
        batchId: "unseeded-batch",
        jobKey: `unseeded-${taskId}-${slot}`,
      })),
    );
    const { results } = await rest<{ results: Array<{ job: TJob }> }>("/api/v1/jobs/batch", { jobs });
    const ids = results.map((result) => result.job.id);
    let finished: TJob[] = [];
    for (;;) {
      const waited = await rest<{ jobs: TJob[]; done: boolean }>("/api/v1/jobs/wait", {
        ids,
        timeoutMs: 30_000,
      });
      finished = waited.jobs;
      if (waited.done) break;
    }
    expect(finished.map((job) => [job.status, job.failure])).toEqual(finished.map(() => ["completed", null]));
    const rewardsByGroup = new Map<string, number[]>();
    for (const job of finished) {
      const rewards = rewardsByGroup.get(job.groupId ?? "") ?? [];
      rewards.push(job.reward as number);
      rewardsByGroup.set(job.groupId ?? "", rewards);
    }
    expect(rewardsByGroup.size).toBe(TASKS.length);
    const allRewards = [...rewardsByGroup.values()].flat();
    expect(new Set(allRewards)).toEqual(new Set([0, 1]));
    // With p = 0.6 a group of 4 is all-equal with chance 0.6^4 + 0.4^4 ≈ 0.16; all four groups
    // being so has odds below 1e-3 — and none ever differed while identical requests got identical samples.
    const informative = [...rewardsByGroup.values()].filter((rewards) => new Set(rewards).size > 1);
    expect(informative.length).toBeGreaterThan(0);
  }, 300_000);
});
