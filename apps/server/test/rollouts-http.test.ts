// Real rollouts of every handler kind through the RUNNING server over HTTP (REST), with bubblewrap
// sandboxes and the in-process simulator (the labelled test double) scripted per task: stored
// turns keep exact token ids and logprobs, tool calls are recorded, rewards are the scripted ones.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TJob, TToolCall, TTurn } from "@raas/shared";
import {
  buildSwePolicyConfig,
  type RunningSimulator,
  type SweScriptInstance,
  startSimulator,
  type TPolicyConfigInput,
} from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenRest } from "./support/http-calls";
import { type RolloutDeployment, type RolloutMode, startRolloutDeployment } from "./support/rollout-modes";

const DATA = fileURLToPath(new URL("../../../packages/handlers/data/", import.meta.url));
const TRAINER = "rollouts-trainer";
const lines = (file: string) =>
  readFileSync(join(DATA, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown> & { taskId?: string; instance_id?: string });
const pick = (file: string, ids: string[]) =>
  lines(file).filter((task) => ids.includes(String(task.taskId ?? task.instance_id)));

const SOLVED_SWE = "tinystats";
const expected: Record<string, number> = {
  "math-001": 1,
  "math-016": 0,
  "code-001": 1,
  "code-008": 0,
  "stem-001": 1,
  "stem-008": 0,
};

// Embedded: one process. Distributed: an API-only server on PostgreSQL + Redis and a worker process.
describe.each<RolloutMode>(["embedded", "distributed"])(
  "rollouts through the running server (%s)",
  (mode) => {
    let server: RolloutDeployment;
    let simulator: RunningSimulator;
    let finished: TJob[] = [];
    const trajectories = new Map<string, { turns: TTurn[]; toolCalls: TToolCall[] }>();

    const rest = tokenRest(() => server.url, TRAINER);

    beforeAll(async () => {
      const swe = lines("swe/instances.jsonl") as unknown as SweScriptInstance[];
      const sweIds = swe.map((i) => i.instance_id).filter((id) => /tinystats|spans/.test(id));
      const solved = new Set(sweIds.filter((id) => id.includes(SOLVED_SWE)));
      const base = JSON.parse(readFileSync(join(DATA, "simulator/math-code-stem.policy.json"), "utf8")) as {
        kind: "scripted";
        tasks: Record<string, unknown>;
      };
      const policy = { ...base, tasks: { ...base.tasks, ...buildSwePolicyConfig(swe, solved).tasks } };
      simulator = await startSimulator({ policy: policy as TPolicyConfigInput, seed: 7 });
      server = await startRolloutDeployment(
        mode,
        {
          RAAS_SWE_REPOS_DIR: join(DATA, "swe/bundles"),
          RAAS_SWE_TEST_TIMEOUT_MS: "20000",
          RAAS_BACKENDS: `vllm=${simulator.url}#Qwen/Qwen3-8B`,
        },
        TRAINER,
      );
      const jobs = [
        ...pick("math.jsonl", ["math-001", "math-016"]).map((payload) => ({ kind: "math", payload })),
        ...pick("code.jsonl", ["code-001", "code-008"]).map((payload) => ({ kind: "code", payload })),
        ...pick("stem.jsonl", ["stem-001", "stem-008"]).map((payload) => ({ kind: "stem", payload })),
        ...swe
          .filter((i) => sweIds.includes(i.instance_id))
          .map((instance) => ({ kind: "swe", payload: { instance } })),
      ];
      const { results } = await rest<{ results: Array<{ job: TJob }> }>("/api/v1/jobs/batch", { jobs });
      const ids = results.map((r) => r.job.id);
      for (;;) {
        const waited = await rest<{ jobs: TJob[]; done: boolean }>("/api/v1/jobs/wait", {
          ids,
          timeoutMs: 30_000,
        });
        finished = waited.jobs;
        if (waited.done) break;
      }
      for (const job of finished) {
        trajectories.set(job.id, await rest(`/api/v1/jobs/${encodeURIComponent(job.id)}/trajectory`));
      }
    }, 300_000);

    afterAll(async () => {
      await server?.close();
      await simulator?.close();
    });

    const taskOf = (job: TJob) => {
      const payload = job.payload as { taskId?: string; instance?: { instance_id: string } };
      return payload.taskId ?? payload.instance?.instance_id ?? "?";
    };

    it("completes every kind with the scripted reward; no infrastructure failure", () => {
      expect(finished.map((job) => [taskOf(job), job.failure])).toEqual(
        finished.map((job) => [taskOf(job), null]),
      );
      const rewards = Object.fromEntries(finished.map((job) => [taskOf(job), job.reward]));
      for (const [task, reward] of Object.entries(expected)) expect(rewards[task]).toBe(reward);
      const swe = finished.filter((job) => job.kind === "swe");
      expect(swe.map((job) => [taskOf(job).includes(SOLVED_SWE), job.reward])).toEqual(
        swe.map((job) => [taskOf(job).includes(SOLVED_SWE), taskOf(job).includes(SOLVED_SWE) ? 1 : 0]),
      );
      expect(finished.every((job) => job.trainable === true)).toBe(true);
    });

    it("releases every job's sticky backend once the job ended", async () => {
      expect(finished.length).toBeGreaterThan(0);
      expect(await server.stickyJobs()).toEqual([0]);
    });

    it("stores token-in/token-out turns with one logprob per response token, from the simulator backend", () => {
      const backend = new URL(simulator.url).host;
      for (const job of finished) {
        const { turns } = trajectories.get(job.id)!;
        expect(turns.length).toBeGreaterThan(0);
        for (const [k, turn] of turns.entries()) {
          expect(turn.responseIds.length).toBeGreaterThan(0);
          expect(turn.logprobs).toHaveLength(turn.responseIds.length);
          expect(turn.logprobs.every((lp) => lp <= 0)).toBe(true);
          expect(turn.backendId).toBe(backend);
          const next = turns[k + 1];
          if (next)
            expect(next.promptIds.slice(0, turn.promptIds.length + turn.responseIds.length)).toEqual([
              ...turn.promptIds,
              ...turn.responseIds,
            ]);
        }
        expect((job.result as { tokenDrift?: { isConsistent: boolean } }).tokenDrift?.isConsistent).toBe(
          true,
        );
      }
    });

    it("records the tool calls the agent made in its sandbox, with their real output", () => {
      const code = finished.find((job) => taskOf(job) === "code-001")!;
      const calls = trajectories.get(code.id)!.toolCalls;
      expect(calls.map((call) => call.name)).toEqual(expect.arrayContaining(["editor", "bash"]));
      const run = calls.find((call) => call.name === "bash")!;
      expect(run).toMatchObject({ exitCode: 0, isError: false });
      expect(run.output.trim()).toBe("3");
      const swe = finished.find((job) => job.kind === "swe" && taskOf(job).includes(SOLVED_SWE))!;
      const sweCalls = trajectories.get(swe.id)!.toolCalls;
      expect(sweCalls.length).toBeGreaterThan(0);
      for (const call of sweCalls) expect(["bash", "python", "editor"]).toContain(call.name);
    });
  },
);
