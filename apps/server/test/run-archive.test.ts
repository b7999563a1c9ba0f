// Retention through the running server on PostgreSQL: `POST /api/v1/runs/{runId}/archive` (admin)
// moves a finished run's trajectories to `<dataDir>/archive/<runId>.jsonl.gz`; job rows and the
// run's steps stay queryable and an archived job's export is read back from the archive.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { TJob, TRun, TStep } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropSchema, TEST_DATABASE_URL } from "../../../packages/db/test/support/postgres-test-database";
import { type RunningServer, startServer } from "../src/server";
import { tokenCalls } from "./support/http-calls";

const schema = `raas_test_archive_${process.pid}_${Date.now().toString(36)}`;
const TOKENS = { admin: "archive-admin", trainer: "archive-trainer" } as const;

describe("runs.archive (PostgreSQL)", () => {
  let server: RunningServer;
  let dir: string;

  const { call, ok } = tokenCalls(() => server.url, TOKENS);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "raas-archive-"));
    server = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      auth: { adminToken: TOKENS.admin, trainerToken: TOKENS.trainer },
      store: { kind: "db", dataDir: join(dir, "data"), databaseUrl: `${TEST_DATABASE_URL}?schema=${schema}` },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close({ graceMs: 100 });
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(schema);
  });

  it("archives a finished run only, for admins, and keeps its jobs, steps and exports readable", async () => {
    const { run } = await ok<{ run: TRun }>("trainer", "/api/v1/runs", { name: "to-archive" });
    const tasks = Array.from({ length: 3 }, (_, i) => ({
      taskId: `t-${i}`,
      kind: "sleep",
      payload: { initMs: 5, runMs: 5, evalMs: 5, successRate: i === 0 ? 1 : 0.5 },
    }));
    const { step } = await ok<{ step: TStep }>("trainer", "/api/v1/steps", {
      runId: run.id,
      tasks: { type: "inline", tasks },
      groupSize: 2,
      groups: 3,
      dynamicSampling: { policy: "none" },
    });
    for (let afterSeq = 0; ; ) {
      const next = await ok<{ groups: { seq: number }[]; done: boolean }>(
        "trainer",
        `/api/v1/steps/${step.id}/next?afterSeq=${afterSeq}&timeoutMs=20000`,
      );
      afterSeq = next.groups.at(-1)?.seq ?? afterSeq;
      if (next.done) break;
    }
    const jobs = (await ok<{ items: TJob[] }>("trainer", `/api/v1/jobs?runId=${run.id}&limit=100`)).items;
    const finished = jobs.filter((job) => ["completed", "failed", "cancelled"].includes(job.status));
    expect(finished.length).toBeGreaterThanOrEqual(6);
    const exportBefore = await ok<Record<string, unknown>>(
      "trainer",
      `/api/v1/jobs/${finished[0]?.id}/export`,
    );

    expect((await call("admin", `/api/v1/runs/${run.id}/archive`, {})).status).toBe(409);
    expect((await call("trainer", `/api/v1/runs/${run.id}/archive`, {})).status).toBe(403);
    expect((await call("admin", "/api/v1/runs/run_nope/archive", {})).status).toBe(404);

    await ok("trainer", `/api/v1/runs/${run.id}/finish`, {});
    const settled = (await ok<{ items: TJob[] }>("trainer", `/api/v1/jobs?runId=${run.id}&limit=100`)).items;
    const terminal = settled.filter((job) => ["completed", "failed", "cancelled"].includes(job.status));
    const outcome = await ok<{ archivedJobs: number; archivedBytes: number; file: string }>(
      "admin",
      `/api/v1/runs/${run.id}/archive`,
      {},
    );
    expect(outcome.archivedJobs).toBe(terminal.length);
    expect(outcome.file).toBe(join(dir, "data", "archive", `${run.id}.jsonl.gz`));
    expect(existsSync(outcome.file)).toBe(true);
    const lines = gunzipSync(readFileSync(outcome.file)).toString("utf8").trim().split("\n");
    expect(lines.map((line) => JSON.parse(line).jobId).sort()).toEqual(terminal.map((job) => job.id).sort());

    const again = await ok<{ archivedJobs: number }>("admin", `/api/v1/runs/${run.id}/archive`, {});
    expect(again.archivedJobs).toBe(0);
    // Summaries stay: the jobs (with rewards) and the step's statistics.
    const after = (await ok<{ items: TJob[] }>("trainer", `/api/v1/jobs?runId=${run.id}&limit=100`)).items;
    expect(after.map((job) => [job.id, job.reward])).toEqual(settled.map((job) => [job.id, job.reward]));
    const steps = await ok<{ items: TStep[] }>("trainer", `/api/v1/runs/${run.id}/steps`);
    expect(steps.items[0]?.stats.groupsDelivered).toBe(3);
    // An archived job's export is served from the archive, the same as before.
    expect(await ok("trainer", `/api/v1/jobs/${finished[0]?.id}/export`)).toEqual(exportBefore);
  }, 120_000);
});
