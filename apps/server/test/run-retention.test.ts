// Issue 31 part 8: a run's retention policy, through the running server. Bad policies are 400s
// that say what is wrong; on the database store the server's retention system archives a
// finished step's jobs once the run has moved on, and leaves the running step's alone.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createJobStore } from "@raas/db";
import type { TRun, TStep } from "@raas/shared";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";

const DATABASE_URL = process.env.RAAS_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const schema = `raas_test_retention_${process.pid}_${Date.now().toString(36)}`;
const ADMIN = "retention-admin";

type Answer<T> = { status: number; body: T };
type ErrorBody = { error: { code: string; message: string } };

async function call<T>(server: RunningServer, path: string, body?: unknown): Promise<Answer<T>> {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

const stepRequest = (runId: string, prefix: string) => ({
  runId,
  tasks: {
    type: "inline",
    tasks: Array.from({ length: 2 }, (_, i) => ({
      taskId: `${prefix}-${i}`,
      kind: "sleep",
      payload: { initMs: 5, runMs: 5, evalMs: 5, successRate: 1 },
    })),
  },
  groupSize: 2,
  groups: 2,
  dynamicSampling: { policy: "none" },
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("run retention through the server (PostgreSQL)", () => {
  let server: RunningServer;
  let dir: string;
  let db: pg.Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "raas-retention-"));
    server = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      auth: { adminToken: ADMIN },
      retentionEveryMs: 100,
      store: { kind: "db", dataDir: join(dir, "data"), databaseUrl: `${DATABASE_URL}?schema=${schema}` },
    });
    db = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path=${schema}` });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await server?.close({ graceMs: 100 });
    rmSync(dir, { recursive: true, force: true });
    const store = await createJobStore({ databaseUrl: DATABASE_URL, schema, migrate: false });
    await store.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await store.close();
  });

  const archivedOf = async (stepId: string) =>
    (
      await db.query<{ total: number; archived: number }>(
        "SELECT count(*)::int AS total, count(archived_at_ms)::int AS archived FROM jobs WHERE batch_id = $1",
        [stepId],
      )
    ).rows[0];

  it("refuses a bad policy with a sentence that names the field", async () => {
    const zero = await call<ErrorBody>(server, "/api/v1/runs", {
      name: "r",
      retention: { archiveAfterSteps: 0 },
    });
    expect(zero.status).toBe(400);
    expect(zero.body.error.message).toContain("archiveAfterSteps");
    const empty = await call<ErrorBody>(server, "/api/v1/runs", { name: "r", retention: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain("give archiveAfterSteps, archiveAfterMs or both");
    const unknown = await call<ErrorBody>(server, "/api/v1/runs", {
      name: "r",
      retention: { archiveAfterSteps: 1, keepForever: true },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("keepForever");
  });

  it("archives a finished step's jobs once the run has a newer step, not the running step's", async () => {
    const created = await call<{ run: TRun }>(server, "/api/v1/runs", {
      name: "long-run",
      retention: { archiveAfterSteps: 1 },
    });
    expect(created.status).toBe(201);
    const run = created.body.run;
    expect(run.retention).toEqual({ archiveAfterSteps: 1 });
    expect((await call<TRun>(server, `/api/v1/runs/${run.id}`)).body.retention).toEqual({
      archiveAfterSteps: 1,
    });

    const first = (await call<{ step: TStep }>(server, "/api/v1/steps", stepRequest(run.id, "s0"))).body.step;
    await until(
      async () => (await call<TStep>(server, `/api/v1/steps/${first.id}`)).body.status,
      (status) => status !== "running",
      "step 0 to finish",
    );
    // Finished, but the run has no newer step yet: nothing is archived.
    const before = await archivedOf(first.id);
    expect(before?.total).toBeGreaterThanOrEqual(4);
    expect(before?.archived).toBe(0);

    const second = (await call<{ step: TStep }>(server, "/api/v1/steps", stepRequest(run.id, "s1"))).body
      .step;
    const after = await until(
      () => archivedOf(first.id),
      (counts) => counts !== undefined && counts.archived === counts.total,
      "step 0's jobs to be archived",
    );
    expect(after?.archived).toBe(before?.total);
    expect((await archivedOf(second.id))?.archived).toBe(0);
  }, 120_000);
});

describe("run retention on the memory store", () => {
  it("is refused: there is no archive to move trajectories to", async () => {
    const server = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      auth: { adminToken: ADMIN },
    });
    try {
      const answer = await call<ErrorBody>(server, "/api/v1/runs", {
        name: "r",
        retention: { archiveAfterMs: 60_000 },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toContain("no trajectory archive");
    } finally {
      await server.close({ graceMs: 100 });
    }
  }, 60_000);
});
