// Several experiments on one service, through the running server on PostgreSQL: runs carry a share,
// a priority and a sandbox cap; writes to a run need the token that created it (or admin); and two
// runs of shares 3:1 stepping at once get slot-time (from their jobs' stage timings) within ±10 % of 3:1.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TJob, TRun, TStep } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropSchema, TEST_DATABASE_URL } from "../../../packages/db/test/support/postgres-test-database";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";
import { type RunningServer, startServer } from "../src/server";
import { tokenCalls } from "./support/http-calls";

const schema = `raas_test_sharing_${process.pid}_${Date.now().toString(36)}`;
const TOKENS = { admin: "sharing-admin", alice: "sharing-alice", bob: "sharing-bob" } as const;
type Who = keyof typeof TOKENS;

const sleepTasks = (prefix: string, runMs: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    taskId: `${prefix}-${i}`,
    kind: "sleep",
    payload: { initMs: 5, runMs, evalMs: 5, successRate: 1 },
  }));

describe("runs sharing one service (PostgreSQL)", () => {
  let server: RunningServer;
  let dir: string;

  const { call, ok } = tokenCalls(() => server.url, TOKENS);
  const createRun = async (who: Who, name: string, extra: Record<string, unknown> = {}) =>
    (await ok<{ run: TRun }>(who, "/api/v1/runs", { name, model: "sleep", ...extra })).run;
  const step = (runId: string, prefix: string, runMs: number, groups: number) => ({
    runId,
    // One group per inline task: as many tasks as groups, so the step never runs out.
    tasks: { type: "inline", tasks: sleepTasks(prefix, runMs, groups) },
    groupSize: 4,
    groups,
    dynamicSampling: { policy: "none" },
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "raas-sharing-"));
    const fromEnv = configFromEnv(
      parseServerEnv({
        RAAS_ADMIN_TOKEN: TOKENS.admin,
        RAAS_TRAINER_TOKENS: `${TOKENS.alice}, ${TOKENS.bob}`,
        RAAS_FAIR_SHARE: "true",
        RAAS_INIT_CONCURRENCY: "2",
        RAAS_RUN_CONCURRENCY: "3",
        RAAS_EVAL_CONCURRENCY: "2",
      }),
    );
    server = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      auth: fromEnv.auth ?? {},
      ...(fromEnv.pools ? { pools: fromEnv.pools } : {}),
      ...(fromEnv.fairShare ? { fairShare: fromEnv.fairShare } : {}),
      store: { kind: "db", dataDir: join(dir, "data"), databaseUrl: `${TEST_DATABASE_URL}?schema=${schema}` },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close({ graceMs: 100 });
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(schema);
  });

  it("stores a run's share, priority, cap and owner; only its owner's token or admin may write to it", async () => {
    const run = await createRun("alice", "alice-run", { share: 2.5, priority: 3, maxSandboxes: 16 });
    expect(run).toMatchObject({ share: 2.5, priority: 3, maxSandboxes: 16 });
    expect(run.ownerId).toMatch(/^token:[0-9a-f]{16}$/);
    expect(JSON.stringify(run)).not.toContain(TOKENS.alice);
    expect((await ok<TRun>("bob", `/api/v1/runs/${run.id}`)).ownerId).toBe(run.ownerId); // reads are open

    // Another trainer's token: 403 naming what is needed, and nothing is created.
    const denied = await call<{ error: { code: string; message: string } }>(
      "bob",
      "/api/v1/steps",
      step(run.id, "auth", 5, 1),
    );
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("FORBIDDEN");
    expect(denied.body.error.message).toContain("another trainer's token");
    expect((await ok<{ items: TStep[] }>("alice", `/api/v1/runs/${run.id}/steps`)).items).toEqual([]);

    // The owner may.
    const created = await ok<{ step: TStep }>("alice", "/api/v1/steps", step(run.id, "auth", 2_000, 1));
    const stepId = created.step.id;
    expect((await call("bob", `/api/v1/steps/${stepId}/cancel`, {})).status).toBe(403);
    expect((await call("bob", `/api/v1/runs/${run.id}/finish`, {})).status).toBe(403);
    expect((await ok<TRun>("alice", `/api/v1/runs/${run.id}`)).status).toBe("active");
    // An admin may too.
    expect((await ok<TStep>("admin", `/api/v1/steps/${stepId}/cancel`, {})).status).toBe("cancelled");
    expect((await ok<TRun>("admin", `/api/v1/runs/${run.id}/finish`, {})).status).toBe("finished");

    // A bad share is the caller's mistake: 400.
    expect((await call("alice", "/api/v1/runs", { name: "bad", share: 0 })).status).toBe(400);
  }, 60_000);

  it("gives two runs of shares 3:1 stepping at once slot-time within ±10 % of 3:1", async () => {
    const heavy = await createRun("alice", "share-3", { share: 3 });
    const light = await createRun("bob", "share-1", { share: 1 });
    const ended: TJob[] = [];
    const unsubscribe = server.engine.subscribe(({ job }) => {
      if (job.status === "completed") ended.push(job);
    });
    try {
      // Run b's jobs are twice as long: fairness is in slot-time, not in job counts.
      await ok("alice", "/api/v1/steps", step(heavy.id, "heavy", 100, 100));
      await ok("bob", "/api/v1/steps", step(light.id, "light", 200, 100));
      const deadline = Date.now() + 180_000;
      while (ended.length < 300 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(ended.length).toBeGreaterThanOrEqual(300);
    } finally {
      unsubscribe();
    }
    // A window of completions after a warm-up (each run's cost per job is learned from its first).
    const slotMs = new Map<string, number>();
    for (const job of ended.slice(60, 300)) {
      const { initMs, runMs, evalMs } = job.timings;
      const runId = (job.metadata as { runId: string }).runId;
      slotMs.set(runId, (slotMs.get(runId) ?? 0) + (initMs ?? 0) + (runMs ?? 0) + (evalMs ?? 0));
    }
    const ratio = (slotMs.get(heavy.id) ?? 0) / (slotMs.get(light.id) ?? 1);
    expect(ratio).toBeGreaterThan(2.7);
    expect(ratio).toBeLessThan(3.3);
    await ok("alice", `/api/v1/runs/${heavy.id}/finish`, {});
    await ok("admin", `/api/v1/runs/${light.id}/finish`, {});
  }, 240_000);
});
