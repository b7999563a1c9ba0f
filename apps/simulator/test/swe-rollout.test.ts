// End-to-end SWE rollouts per model family: RolloutEngine → bubblewrap sandbox with the repository
// at base_commit → agent loop → routed pool → in-process simulator following scripted tool calls
// in the family's own format → fresh EVAL sandbox grading FAIL_TO_PASS / PASS_TO_PASS.

import {
  createBundleDirRepoSource,
  runSweBenchmark,
  type SweEvalReport,
  type SweJobGateway,
} from "@raas/handlers";
import { tinystatsForgeries } from "@raas/handlers/testing";
import type { ModelFamilyAdapter } from "@raas/inference";
import type { TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TPolicyConfigInput, TTaskScript } from "../src/index";
import { expressScripts } from "../src/index";
import { swePatchScript, sweWrongFixScript } from "../src/swe/swe-policy-scripts";
import { MODEL_FAMILIES } from "./support/model-families";
import { type RolloutFixture, startRolloutFixture } from "./support/rollout-fixture";
import { expectRestartAfterSandboxKill } from "./support/sandbox-kill";
import { fixtureInstance, requireSweTools, SWE_BUNDLE_DIR } from "./support/swe-fixtures";

const SOLVED = fixtureInstance("raas-fixtures__tinystats-1");
const SOLVED_UNITTEST = fixtureInstance("raas-fixtures__slugkit-7");
const FAILED = fixtureInstance("raas-fixtures__spans-12");
const KILLED = { ...fixtureInstance("raas-fixtures__lrukit-21") };
const KILL_TASK = "swe-kill-001";

const solvedScript = swePatchScript(SOLVED);
// An agent that also leaves a new file behind: the diff must carry it.
solvedScript.steps.splice(2, 0, {
  toolCalls: [
    {
      name: "editor",
      arguments: {
        command: "create",
        path: "/workspace/tinystats/docs/NOTES.md",
        file_text: "median: even lengths average the middle pair\n",
      },
    },
  ],
});
const scripts: Record<string, TTaskScript> = {
  [SOLVED.instance_id]: solvedScript,
  [SOLVED_UNITTEST.instance_id]: swePatchScript(SOLVED_UNITTEST),
  [FAILED.instance_id]: sweWrongFixScript(FAILED),
  [KILL_TASK]: {
    steps: [{ toolCalls: [{ name: "bash", arguments: { command: "sleep 60" } }] }],
    repeatLast: false,
  },
};

describe.each(MODEL_FAMILIES)(
  "$name: swe rollouts end to end (engine + sandboxes + simulator)",
  (modelFamily) => {
    let family: ModelFamilyAdapter;
    let rewrites: string[] = [];
    let fixture: RolloutFixture;
    let jobs: TJob[] = [];

    beforeAll(async () => {
      requireSweTools();
      family = await modelFamily.load();
      const expressed = expressScripts(family, scripts);
      rewrites = expressed.rewrites;
      const policy: TPolicyConfigInput = { kind: "scripted", tasks: expressed.tasks };
      fixture = await startRolloutFixture({
        policy,
        family,
        concurrency: 3,
        config: { agent: { sampling: { temperature: 1, seed: 7 } } },
        swe: { repoSource: createBundleDirRepoSource({ dir: SWE_BUNDLE_DIR }), testTimeoutMs: 60_000 },
      });
      const submitted = await fixture.engine.submitJobs(
        [SOLVED, SOLVED_UNITTEST, FAILED].map((instance) => ({ kind: "swe", payload: instance })),
      );
      jobs = (
        await fixture.engine.waitForJobs(
          submitted.map((s) => s.job.id),
          { timeoutMs: 240_000 },
        )
      ).jobs;
    }, 300_000);

    afterAll(async () => {
      await fixture?.close();
    });

    /** The benchmark runner's job gateway, straight onto the engine. */
    const engineGateway = (): SweJobGateway => ({
      submit: async (requests) =>
        (await fixture.engine.submitJobs(requests)).map((r) => ({
          id: r.job.id,
          created: r.created,
          status: r.job.status,
        })),
      wait: async (ids, timeoutMs) => (await fixture.engine.waitForJobs(ids, { timeoutMs })).jobs,
    });

    // Jobs keep the payload as submitted: here, bare SWE-bench instances.
    const jobOf = (instanceId: string) => jobs.find((job) => job.payload.instance_id === instanceId) as TJob;

    it("writes every scripted step in the family's format, words beside calls included", () => {
      const withContentAndCalls = Object.values(scripts).flatMap((script) =>
        script.steps.filter((step) => step.content && step.toolCalls?.length),
      );
      expect(withContentAndCalls.length).toBeGreaterThan(0);
      expect(rewrites).toEqual([]);
    });

    it("resolves the instances the policy fixes (reward 1) and not the one it gets wrong (reward 0)", () => {
      expect(jobs.map((job) => [job.status, job.failure])).toEqual(jobs.map(() => ["completed", null]));
      expect(jobOf(SOLVED.instance_id)).toMatchObject({ reward: 1, trainable: true });
      expect(jobOf(SOLVED_UNITTEST.instance_id)).toMatchObject({ reward: 1, trainable: true });
      expect(jobOf(FAILED.instance_id)).toMatchObject({ reward: 0, trainable: true });
      const failed = jobOf(FAILED.instance_id).result as SweEvalReport;
      expect(failed).toMatchObject({ resolved: false, emptyPatch: false, failedApplyPatch: false });
      expect(failed.testsStatus.FAIL_TO_PASS.failure).toEqual(FAILED.FAIL_TO_PASS);
      expect(failed.modelPatch).toContain("README.md");
    });

    it("grades the diff taken from the RUN workspace, new files included", () => {
      const report = jobOf(SOLVED.instance_id).result as SweEvalReport & { agent: { stopReason: string } };
      expect(report.agent.stopReason).toBe("submitted");
      expect(report.modelPatch).toContain("diff --git a/tinystats/core.py b/tinystats/core.py");
      expect(report.modelPatch).toContain("new file mode");
      expect(report.modelPatch).toContain("+++ b/docs/NOTES.md");
      expect(report.testsStatus.FAIL_TO_PASS.success).toEqual(SOLVED.FAIL_TO_PASS);
      expect(report.testsStatus.PASS_TO_PASS.success).toEqual(SOLVED.PASS_TO_PASS);
      expect(report.pythonVersion).toMatch(/^3\./);
    });

    it("stores every turn with token ids and logprobs, and every tool call with its result", async () => {
      const job = jobOf(SOLVED.instance_id);
      const { turns, toolCalls } = await fixture.engine.getTrajectory(job.id);
      expect(turns).toHaveLength(solvedScript.steps.length);
      for (const turn of turns) {
        expect(turn.promptIds.length).toBeGreaterThan(0);
        expect(turn.responseIds.length).toBeGreaterThan(0);
        expect(turn.logprobs).toHaveLength(turn.responseIds.length);
        expect(turn.backendId).toBe("sim-0");
      }
      // Token-in/token-out: each prompt extends the previous prompt + response verbatim.
      for (let i = 1; i < turns.length; i += 1) {
        const previous = turns[i - 1] as (typeof turns)[number];
        const prefix = [...previous.promptIds, ...previous.responseIds];
        expect(turns[i]?.promptIds.slice(0, prefix.length)).toEqual(prefix);
      }
      const apply = toolCalls.find((call) => JSON.stringify(call.arguments).includes("git apply"));
      expect(apply).toMatchObject({ name: "bash", exitCode: 0, isError: false });
      const create = toolCalls.find((call) => call.name === "editor");
      expect(create).toMatchObject({ isError: false });
    });

    it("closes the RUN sandbox and the fresh EVAL sandbox of every job", () => {
      // Runs before the benchmark and kill tests add jobs of their own.
      expect(fixture.sandboxes).toHaveLength(2 * jobs.length);
      expect(fixture.sandboxes.every((sandbox) => sandbox.state === "closed")).toBe(true);
    });

    it("runs a benchmark (predictions + SWE-bench report) through the engine", async () => {
      const outcome = await runSweBenchmark({
        instances: [SOLVED_UNITTEST, FAILED],
        model: `simulated-${modelFamily.name}`,
        runId: "bench-1",
        gateway: engineGateway(),
      });
      expect(outcome.summary).toMatchObject({
        total_instances: 2,
        completed_instances: 2,
        resolved_ids: [SOLVED_UNITTEST.instance_id],
        unresolved_ids: [FAILED.instance_id],
        error_instances: 0,
      });
      const report = (id: string) => outcome.reports.find((r) => r.instanceId === id);
      expect(report(SOLVED_UNITTEST.instance_id)).toMatchObject({ resolved: true, emptyPatch: false });
      expect(report(FAILED.instance_id)).toMatchObject({ resolved: false, failedApplyPatch: false });
      expect(outcome.predictionsJsonl).toContain(`"model_name_or_path":"simulated-${modelFamily.name}"`);
    }, 120_000);

    // Forged grades, missing repositories and killed sandboxes are the grader's and the sandbox's
    // concern, the same for every family: the reference family runs them.
    if (modelFamily.isReference) {
      it("fails a forged grade as the policy's `tampered` (reward 0, trainable) and grades it unresolved in a benchmark", async () => {
        const forged = tinystatsForgeries().find((f) => f.name.includes("rewrites pytest's reports"));
        if (!forged) throw new Error("the forgery corpus lost its report-rewriting patch");
        const outcome = await runSweBenchmark({
          instances: [SOLVED],
          model: "forger",
          runId: "bench-forged",
          predictions: [
            { instance_id: SOLVED.instance_id, model_name_or_path: "forger", model_patch: forged.source },
          ],
          gateway: engineGateway(),
        });
        const [result] = outcome.results;
        const job = await fixture.engine.getJob(result?.jobId as string);
        expect(job).toMatchObject({
          status: "failed",
          reward: 0,
          trainable: true,
          failure: { kind: "agent", stage: "eval", label: "tampered" },
        });
        expect(job.failure?.message).toMatch(/canary/);
        // The report (which canary lied) is kept on the job, and the benchmark counts a grade, not an error.
        const lies = (job.result as SweEvalReport).canaries?.lies ?? [];
        expect(lies.length).toBeGreaterThan(0);
        expect(outcome.summary).toMatchObject({ unresolved_ids: [SOLVED.instance_id], error_instances: 0 });
        expect(result).toMatchObject({ resolved: false, detail: { tampered: true } });
      }, 120_000);

      it("fails an instance whose repository or base commit is missing as `eval` in INIT, never reward 0", async () => {
        const submitted = await fixture.engine.submitJobs([
          { kind: "swe", payload: { ...FAILED, instance_id: "missing-repo", repo: "raas-fixtures/missing" } },
          { kind: "swe", payload: { ...FAILED, instance_id: "missing-commit", base_commit: "0".repeat(40) } },
        ]);
        const { jobs: done } = await fixture.engine.waitForJobs(
          submitted.map((s) => s.job.id),
          { timeoutMs: 60_000 },
        );
        for (const job of done) {
          expect(job).toMatchObject({
            status: "failed",
            reward: null,
            trainable: false,
            failure: { kind: "eval", stage: "init" },
          });
        }
        expect(done[0]?.failure?.message).toContain("raas-fixtures__missing.bundle");
      }, 120_000);

      it("restarts a job whose sandbox is killed mid-RUN from INIT, its killed sandbox torn down", async () => {
        const before = fixture.sandboxes.length;
        const { job } = await fixture.engine.submitJob({
          kind: "swe",
          payload: { taskId: KILL_TASK, instance: KILLED, agent: { toolTimeoutMs: 120_000 } },
        });
        // Killed while its scripted `sleep 60` runs: infrastructure, not the policy's fault, so the
        // job starts again from INIT (attempt 2).
        await expectRestartAfterSandboxKill(fixture, job.id, before);
      }, 180_000);
    }
  },
);
