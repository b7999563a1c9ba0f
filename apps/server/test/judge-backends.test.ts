// `judge` jobs through the running server with the judge named apart from the policy: the policy's
// backends from RAAS_BACKENDS, the judge's from RAAS_JUDGE_BACKENDS, each played by its own
// simulator (labelled test doubles; the judge's scripted per task). Judge calls reach only the
// judge's simulator, policy turns only the policy's, in both deployment modes.
import { fileURLToPath } from "node:url";
import { judgeJobRequest, loadJudgeEnvironment } from "@raas/handlers";
import type { TJob } from "@raas/shared";
import { type RunningSimulator, startSimulator, type TPolicyConfigInput } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenRest } from "./support/http-calls";
import { type RolloutDeployment, type RolloutMode, startRolloutDeployment } from "./support/rollout-modes";

const EXAMPLE_DIR = fileURLToPath(new URL("../../../environments/judge-rubric/", import.meta.url));
const TRAINER = "judge-trainer";

describe.each<RolloutMode>(["embedded", "distributed"])(
  "judge backends apart from the policy's (%s)",
  (mode) => {
    let server: RolloutDeployment;
    let policySim: RunningSimulator;
    let judgeSim: RunningSimulator;
    let finished: TJob[] = [];
    let taskIds: string[] = [];

    const rest = tokenRest(() => server.url, TRAINER);

    beforeAll(async () => {
      const { tasks } = await loadJudgeEnvironment(EXAMPLE_DIR);
      const picked = tasks.slice(0, 2);
      taskIds = picked.map((task) => task.taskId);
      policySim = await startSimulator({
        policy: {
          kind: "scripted",
          tasks: Object.fromEntries(
            taskIds.map((id) => [
              id,
              { steps: [{ toolCalls: [{ name: "submit", arguments: { answer: `answer of ${id}` } }] }] },
            ]),
          ),
        } as TPolicyConfigInput,
        latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
      });
      judgeSim = await startSimulator({
        modelName: "sim-judge",
        policy: {
          kind: "judge",
          tasks: Object.fromEntries(taskIds.map((id, i) => [id, { score: 6 + 2 * i }])),
        },
        latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
      });
      server = await startRolloutDeployment(
        mode,
        {
          RAAS_BACKENDS: `vllm=${policySim.url}#Qwen/Qwen3-8B`,
          RAAS_JUDGE_BACKENDS: `${judgeSim.url}#sim-judge`,
        },
        TRAINER,
      );
      const { results } = await rest<{ results: Array<{ job: TJob }> }>("/api/v1/jobs/batch", {
        jobs: picked.map((task) => judgeJobRequest(task)),
      });
      const ids = results.map((r) => r.job.id);
      for (;;) {
        const waited = await rest<{ jobs: TJob[]; done: boolean }>("/api/v1/jobs/wait", {
          ids,
          timeoutMs: 30_000,
        });
        finished = waited.jobs;
        if (waited.done) break;
      }
    }, 300_000);

    afterAll(async () => {
      await server?.close();
      await policySim?.close();
      await judgeSim?.close();
    });

    it("grades each job by the judge named for judging, stored with the grade", () => {
      const byTask = new Map(finished.map((job) => [(job.payload as { taskId: string }).taskId, job]));
      for (const [i, id] of taskIds.entries()) {
        const job = byTask.get(id) as TJob;
        expect([job.status, job.reward]).toEqual(["completed", (6 + 2 * i) / 10]);
        expect(job.result).toMatchObject({
          answer: `answer of ${id}`,
          verifier: {
            status: "scored",
            model: "sim-judge",
            backendId: new URL(judgeSim.url).host,
            score: 6 + 2 * i,
          },
        });
      }
    });

    it("sends policy turns only to the policy's backends and judge calls only to the judge's", async () => {
      expect(policySim.snapshot().requestsSucceeded).toBe(finished.length);
      expect(judgeSim.snapshot().requestsSucceeded).toBe(finished.length);
      const { backends } = await rest<{ backends: Array<{ id: string }> }>("/api/v1/backends");
      expect(backends.map((b) => b.id)).toEqual([new URL(policySim.url).host]);
    });
  },
);
