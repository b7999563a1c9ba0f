// Two trainers (tenants) sharing one service, through the running server on PostgreSQL with real
// `math` rollouts in bubblewrap sandboxes against the simulator (the labelled test double for the
// model): each run names its own policy, served by its own backend. Jobs, batches, steps and
// policies belong to the token that created them — another trainer's token cannot cancel them,
// add to them, pause or re-version them (403 naming the owner), an admin token can; weight
// versions and pauses are per policy (a step waits only on its own policy's pause); and with
// RAAS_REQUIRE_VIEWER_TOKEN on, one trainer cannot read the other's exports or gateway traces.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TJob, TPolicyState, TRun, TStep, TTrajectoryExport } from "@raas/shared";
import { type RunningSimulator, startSimulator } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropSchema, TEST_DATABASE_URL } from "../../../packages/db/test/support/postgres-test-database";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";
import { type RunningServer, startServer } from "../src/server";
import { tokenCalls } from "./support/http-calls";

const schema = `raas_test_tenants_${process.pid}_${Date.now().toString(36)}`;
const TOKENS = {
  admin: "tenants-admin",
  alice: "tenants-alice",
  bob: "tenants-bob",
  viewer: "tenants-viewer",
} as const;
type Who = keyof typeof TOKENS;
type ErrorBody = { error: { code: string; message: string; details?: Record<string, unknown> } };

const mathTask = (taskId: string) => ({
  taskId,
  kind: "math",
  payload: { taskId, problem: "What is $2 + 2$?", answer: "4" },
});
const sleepTask = (taskId: string, runMs: number) => ({
  taskId,
  kind: "sleep",
  payload: { initMs: 5, runMs, evalMs: 5, successRate: 1 },
});

describe("tenants sharing one service (PostgreSQL, math rollouts on the simulator)", () => {
  let server: RunningServer;
  let simulator: RunningSimulator;
  let dir: string;
  /** Sandboxes run as another uid: their base directory is a world-searchable one of its own. */
  let sandboxDir: string;

  const { call, ok } = tokenCalls(() => server.url, TOKENS);
  /** A 403 that names the owner's token and says an admin token would do. */
  const expectForbidden = async (who: Who, path: string, body?: unknown) => {
    const denied = await call<ErrorBody>(who, path, body);
    expect(denied.status, JSON.stringify(denied.body)).toBe(403);
    expect(denied.body.error.code).toBe("FORBIDDEN");
    expect(denied.body.error.message).toMatch(/another trainer's token \(token:[0-9a-f]{16}\)/);
    expect(denied.body.error.message).toContain("admin token");
    return denied.body.error;
  };
  const createRun = async (who: Who, name: string, policyId?: string) =>
    (await ok<{ run: TRun }>(who, "/api/v1/runs", { name, ...(policyId && { policyId }) })).run;
  const createStep = async (who: Who, runId: string, tasks: unknown[], groupSize = 2) =>
    (
      await ok<{ step: TStep }>(who, "/api/v1/steps", {
        runId,
        tasks: { type: "inline", tasks },
        groupSize,
        groups: tasks.length,
        dynamicSampling: { policy: "none" },
      })
    ).step;
  const stepOf = (who: Who, stepId: string) => ok<TStep>(who, `/api/v1/steps/${stepId}`);
  const jobsOf = async (stepId: string) =>
    (await ok<{ items: TJob[] }>("admin", `/api/v1/jobs?batchId=${stepId}&limit=100`)).items;
  const until = async (what: string, condition: () => Promise<boolean>, timeoutMs = 180_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "raas-tenants-"));
    sandboxDir = mkdtempSync(join(tmpdir(), "raas-tenants-sandboxes-"));
    simulator = await startSimulator({
      policy: {
        kind: "scripted",
        default: { steps: [{ thinking: "Two and two.", content: "The answer is $\\boxed{4}$." }] },
      },
    });
    const fromEnv = configFromEnv(
      parseServerEnv({
        RAAS_ADMIN_TOKEN: TOKENS.admin,
        RAAS_TRAINER_TOKENS: `${TOKENS.alice},${TOKENS.bob}`,
        RAAS_VIEWER_TOKEN: TOKENS.viewer,
        RAAS_REQUIRE_VIEWER_TOKEN: "true",
      }),
    );
    server = await startServer({
      port: 0,
      logLevel: "silent",
      auth: fromEnv.auth ?? {},
      ...(fromEnv.inference ? { inference: fromEnv.inference } : {}),
      sandbox: { runtime: "bubblewrap", baseDir: sandboxDir },
      store: { kind: "db", dataDir: join(dir, "data"), databaseUrl: `${TEST_DATABASE_URL}?schema=${schema}` },
    });
  }, 180_000);

  afterAll(async () => {
    await server?.close({ graceMs: 100 });
    await simulator?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (sandboxDir) rmSync(sandboxDir, { recursive: true, force: true });
    await dropSchema(schema);
  });

  it("keeps the default policy's version its first trainer's: a second trainer cannot bump it", async () => {
    await createRun("alice", "alice-on-default");
    await createRun("bob", "bob-on-default");
    expect(
      (await ok<TPolicyState>("alice", "/api/v1/policy/weight-version", { weightVersion: 0 })).ownerId,
    ).toMatch(/^token:[0-9a-f]{16}$/);
    const denied = await expectForbidden("bob", "/api/v1/policy/weight-version", { weightVersion: 20 });
    expect(denied.message).toContain("policy default");
    await expectForbidden("bob", "/api/v1/policy/pause", { mode: "wait" });
    expect(await ok<TPolicyState>("bob", "/api/v1/policy")).toMatchObject({
      weightVersion: 0,
      isPaused: false,
    });
    // An admin may change any policy, and does not take it over.
    const byAdmin = await ok<TPolicyState>("admin", "/api/v1/policy/weight-version", { weightVersion: 2 });
    expect(byAdmin.weightVersion).toBe(2);
    expect(
      (await ok<TPolicyState>("alice", "/api/v1/policy/weight-version", { weightVersion: 3 })).weightVersion,
    ).toBe(3);
  });

  describe("two runs on two policies", () => {
    let aliceRun: TRun;
    let bobRun: TRun;
    let aliceStep: TStep;
    let bobStep: TStep;

    beforeAll(async () => {
      aliceRun = await createRun("alice", "alice-math", "alice-policy");
      bobRun = await createRun("bob", "bob-math", "bob-policy");
      // One simulator, two backends: each serves one policy's weights.
      for (const [id, policyId] of [
        ["sim-alice", "alice-policy"],
        ["sim-bob", "bob-policy"],
      ] as const) {
        await ok("admin", "/api/v1/backends", {
          id,
          baseUrl: simulator.url,
          modelName: simulator.modelName,
          policyId,
        });
      }
    }, 60_000);

    it("records each run's policy and keeps weight versions apart", async () => {
      expect([aliceRun.policyId, bobRun.policyId]).toEqual(["alice-policy", "bob-policy"]);
      await ok("alice", "/api/v1/policy/weight-version", { weightVersion: 0, policyId: "alice-policy" });
      await ok("bob", "/api/v1/policy/weight-version", { weightVersion: 20, policyId: "bob-policy" });
      expect((await ok<TPolicyState>("bob", "/api/v1/policy?policyId=alice-policy")).weightVersion).toBe(0);
      const policies = (await ok<{ items: TPolicyState[] }>("viewer", "/api/v1/policies")).items;
      expect(policies.map((p) => [p.policyId, p.weightVersion])).toEqual([
        ["alice-policy", 0],
        ["bob-policy", 20],
        ["default", 3],
      ]);
      const { backends } = await ok<{ backends: { id: string; policyId: string; weightVersion: string }[] }>(
        "admin",
        "/api/v1/backends",
      );
      expect(backends.map((b) => [b.id, b.policyId, b.weightVersion])).toEqual([
        ["sim-alice", "alice-policy", "0"],
        ["sim-bob", "bob-policy", "20"],
      ]);
      // Bob cannot touch Alice's policy; neither may he pass it off as his with a run of his own.
      for (const [path, body] of [
        ["/api/v1/policy/weight-version", { weightVersion: 999, policyId: "alice-policy" }],
        ["/api/v1/policy/pause", { mode: "abort-and-continue", policyId: "alice-policy" }],
        ["/api/v1/policy/resume", { weightVersion: 999, policyId: "alice-policy" }],
      ] as const) {
        const denied = await expectForbidden("bob", path, body);
        expect(denied.details).toMatchObject({ policyId: "alice-policy", ownerId: aliceRun.ownerId });
      }
      await createRun("bob", "bob-borrows-alice-policy", "alice-policy");
      await expectForbidden("bob", "/api/v1/policy/weight-version", {
        weightVersion: 999,
        policyId: "alice-policy",
      });
      expect(await ok<TPolicyState>("alice", "/api/v1/policy?policyId=alice-policy")).toMatchObject({
        weightVersion: 0,
        isPaused: false,
        ownerId: aliceRun.ownerId,
      });
    });

    it("holds only the paused policy's step: the other run's step completes meanwhile", async () => {
      await ok("alice", "/api/v1/policy/pause", { mode: "wait", policyId: "alice-policy" });
      aliceStep = await createStep("alice", aliceRun.id, [mathTask("alice-1")]);
      bobStep = await createStep("bob", bobRun.id, [mathTask("bob-1")]);
      await until("bob's step ends", async () => (await stepOf("bob", bobStep.id)).status !== "running");
      expect((await stepOf("bob", bobStep.id)).status).toBe("completed");
      // Alice's jobs get their sandboxes and reach RUN, where they wait at her policy's gate: the
      // simulator has answered Bob's turns only, and nothing of hers finished.
      await until("alice's jobs are in RUN", async () => {
        const jobs = await jobsOf(aliceStep.id);
        return jobs.length === 2 && jobs.every((job) => job.status === "active" && job.stage === "run");
      });
      let bobTurns = 0;
      for (const job of await jobsOf(bobStep.id))
        bobTurns += (await ok<TTrajectoryExport>("bob", `/api/v1/jobs/${job.id}/export`)).turns.length;
      expect(bobTurns).toBeGreaterThan(0);
      expect(simulator.snapshot()).toMatchObject({ requestsSucceeded: bobTurns, running: 0 });
      expect((await stepOf("alice", aliceStep.id)).status).toBe("running");
      const aliceJobs = await jobsOf(aliceStep.id);
      expect(aliceJobs).toHaveLength(2);
      expect(aliceJobs.every((job) => job.status !== "completed" && job.status !== "failed")).toBe(true);
      expect(
        aliceJobs.every((job) => job.policyId === "alice-policy" && job.ownerId === aliceRun.ownerId),
      ).toBe(true);

      await ok("alice", "/api/v1/policy/resume", { weightVersion: 1, policyId: "alice-policy" });
      await until(
        "alice's step ends",
        async () => (await stepOf("alice", aliceStep.id)).status !== "running",
      );
      expect((await stepOf("alice", aliceStep.id)).status).toBe("completed");
      const versions = async (who: Who, stepId: string) => {
        const out = new Set<string | null>();
        for (const job of await jobsOf(stepId)) {
          expect(job.status).toBe("completed");
          const row = await ok<TTrajectoryExport>(who, `/api/v1/jobs/${job.id}/export`);
          for (const turn of row.turns) out.add(turn.weightVersion);
        }
        return [...out];
      };
      // Each run's turns were sampled on its own policy's backend, under its own version.
      expect(await versions("alice", aliceStep.id)).toEqual(["1"]);
      expect(await versions("bob", bobStep.id)).toEqual(["20"]);
    }, 300_000);

    it("keeps one trainer's exports and gateway traces from the other when reads need tokens", async () => {
      const aliceJob = (await jobsOf(aliceStep.id))[0] as TJob;
      for (const path of [
        `/api/v1/jobs/${aliceJob.id}/export`,
        `/api/v1/jobs/${aliceJob.id}/gateway-traces`,
        `/api/v1/jobs/${aliceJob.id}/trajectory`,
        `/api/v1/batches/${aliceStep.id}/trajectories`,
        `/api/v1/batches/${aliceStep.id}/trajectories.jsonl`,
        `/api/v1/steps/${aliceStep.id}/next?timeoutMs=0`,
      ]) {
        await expectForbidden("bob", path);
        for (const who of ["alice", "viewer", "admin"] as const) {
          expect((await call(who, path)).status, `${who} ${path}`).toBe(200);
        }
      }
    });
  });

  describe("cancelling another trainer's work", () => {
    it("refuses Bob's cancel of Alice's batch, step, group and jobs and his jobs in her batch; an admin may cancel", async () => {
      const run = await createRun("alice", "alice-sleep");
      const step = await createStep("alice", run.id, [sleepTask("long-1", 120_000)]);
      await until("the step's jobs exist", async () => (await jobsOf(step.id)).length === 2);
      const [job] = await jobsOf(step.id);
      await expectForbidden("bob", "/api/v1/jobs/cancel", { batchId: step.id });
      await expectForbidden("bob", "/api/v1/jobs/cancel", { groupId: job?.groupId });
      await expectForbidden("bob", "/api/v1/jobs/cancel", { jobId: job?.id });
      await expectForbidden("bob", `/api/v1/steps/${step.id}/cancel`, {});
      await expectForbidden("bob", "/api/v1/jobs", {
        kind: "sleep",
        batchId: step.id,
        payload: { runMs: 1 },
      });
      await expectForbidden("bob", "/api/v1/jobs/batch", {
        jobs: [{ kind: "sleep", groupId: job?.groupId, payload: { runMs: 1 } }],
      });
      // Nothing of Alice's was cancelled, nothing of Bob's joined her batch.
      const after = await jobsOf(step.id);
      expect(after).toHaveLength(2);
      expect(after.every((j) => j.status !== "failed" && j.ownerId === run.ownerId)).toBe(true);
      expect((await stepOf("alice", step.id)).status).toBe("running");

      // Bob's own plain jobs are his to cancel; their batch is closed to Alice.
      const mine = await ok<{ job: TJob }>("bob", "/api/v1/jobs", {
        kind: "sleep",
        jobKey: "bob-key-1",
        batchId: "bob-batch",
        payload: { runMs: 120_000 },
      });
      expect(mine.job.ownerId).toMatch(/^token:/);
      expect(mine.job.ownerId).not.toBe(run.ownerId);
      // His job key stays his: Alice gets neither his job nor a say over it.
      const reused = await call<ErrorBody>("alice", "/api/v1/jobs", {
        kind: "sleep",
        jobKey: "bob-key-1",
        payload: { runMs: 120_000 },
      });
      expect(reused.status).toBe(403);
      expect(reused.body.error.message).toMatch(/job key "bob-key-1" belongs to another trainer's token/);
      await expectForbidden("alice", "/api/v1/jobs/cancel", { batchId: "bob-batch" });
      expect(
        (await ok<{ cancelled: string[] }>("bob", "/api/v1/jobs/cancel", { batchId: "bob-batch" })).cancelled,
      ).toEqual([mine.job.id]);

      // An admin token may cancel anyone's batch.
      const cancelled = await ok<{ cancelled: string[] }>("admin", "/api/v1/jobs/cancel", {
        batchId: step.id,
      });
      expect(cancelled.cancelled.sort()).toEqual(after.map((j) => j.id).sort());
      await ok("admin", `/api/v1/steps/${step.id}/cancel`, {});
    }, 120_000);
  });
});
