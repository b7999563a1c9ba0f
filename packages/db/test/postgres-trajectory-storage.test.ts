// Issue 14, "a store that stays fast", against the real PostgreSQL: prompts stored as deltas,
// the run/task filter columns (and their backfill by the migration) and retention to gzip JSONL.
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { failureOf, type TTurn } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createJobStore,
  DEFAULT_MIGRATIONS_DIR,
  migrate,
  openDatabase,
  type PrismaJobStore,
} from "../src/index";
import { makeFinishedJob, makeJob, makeToolCall, makeTurn } from "./support/job-fixtures";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/** Turns of a growing conversation: each prompt = previous prompt + response + observation. */
function conversation(jobId: string, turns: number): TTurn[] {
  const out: TTurn[] = [];
  let prompt = range(151_000, 300);
  for (let index = 0; index < turns; index += 1) {
    const responseIds = range(1_000 * (index + 1), 120);
    out.push(
      makeTurn(jobId, index, {
        promptIds: prompt,
        responseIds,
        logprobs: responseIds.map((_, i) => (i === 3 ? Number.NEGATIVE_INFINITY : Math.fround(-i / 100))),
      }),
    );
    prompt = [...prompt, ...responseIds, ...range(90_000 + index * 100, 40)];
  }
  return out;
}

async function storedPromptBytes(store: PrismaJobStore, jobId: string): Promise<number[]> {
  const rows = await store.prisma.$queryRawUnsafe<{ bytes: number }[]>(
    `SELECT octet_length(prompt_ids) AS bytes FROM turns WHERE job_id = $1 ORDER BY index`,
    jobId,
  );
  return rows.map((row) => Number(row.bytes));
}

describe("PostgreSQL trajectory storage", () => {
  const schema = freshSchemaName();
  let store: PrismaJobStore;
  let archiveDir = "";

  beforeAll(async () => {
    await requirePostgres();
    archiveDir = await mkdtemp(path.join(tmpdir(), "raas-archive-"));
    store = await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema, archiveDir });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await dropSchema(schema);
    await rm(archiveDir, { recursive: true, force: true });
  });

  it("stores each prompt after the previous turn's prompt + response only, and reads it back exactly", async () => {
    const job = makeJob();
    await store.insertJobs([job]);
    const turns = conversation(job.id, 4);
    for (const turn of turns) await store.appendTurns([turn]); // one flush per turn, as the recorder does
    const back = await store.listTurns(job.id);
    expect(back.map((turn) => turn.promptIds)).toEqual(turns.map((turn) => turn.promptIds));
    expect(back.map((turn) => turn.responseIds)).toEqual(turns.map((turn) => turn.responseIds));
    expect(back[1]?.logprobs[3]).toBe(Number.NEGATIVE_INFINITY);
    // Only the first prompt (300 ids) and each turn's 40 new observation ids are stored.
    expect(await storedPromptBytes(store, job.id)).toEqual([300 * 4, 40 * 4, 40 * 4, 40 * 4]);
  });

  it("a whole trajectory in one batch, and a turn written by another process (no cache), read back exactly", async () => {
    const job = makeJob();
    await store.insertJobs([job]);
    const turns = conversation(job.id, 3);
    await store.appendTurns(turns.slice(0, 2));
    const other = await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
    try {
      await other.appendTurns(turns.slice(2));
      expect((await other.listTurns(job.id)).map((turn) => turn.promptIds)).toEqual(
        turns.map((t) => t.promptIds),
      );
    } finally {
      await other.close();
    }
    const full = (turns[2] as TTurn).promptIds.length;
    expect(await storedPromptBytes(store, job.id)).toEqual([300 * 4, 40 * 4, full * 4]);
  });

  it("a turn whose previous turn another attempt rewrote reads back without the prefix (a visible break)", async () => {
    const job = makeJob();
    await store.insertJobs([job]);
    const turns = conversation(job.id, 3);
    await store.appendTurns(turns);
    await store.appendTurns([{ ...(turns[1] as TTurn), responseIds: range(7, 120) }]);
    const back = await store.listTurns(job.id);
    expect(back[2]?.promptIds).toEqual(range(90_000 + 100, 40));
    expect(back[1]?.promptIds).toEqual(turns[1]?.promptIds);
  });

  it("filters by run and task through the indexed columns, following metadata updates", async () => {
    const a = makeJob({ metadata: { runId: "run_filter_a", taskId: "task-1" } });
    const b = makeJob({ metadata: { runId: "run_filter_b", taskId: "task-1" } });
    await store.insertJobs([a, b]);
    expect((await store.listJobs({ runId: "run_filter_a", limit: 100 })).items.map((job) => job.id)).toEqual([
      a.id,
    ]);
    expect(
      (await store.listJobs({ taskId: "task-1", limit: 100 })).items.map((job) => job.id).sort(),
    ).toEqual([a.id, b.id].sort());
    await store.updateJobs([{ id: b.id, metadata: { runId: "run_filter_a", taskId: "task-2" } }]);
    expect(
      (await store.listJobs({ runId: "run_filter_a", limit: 100 })).items.map((job) => job.id).sort(),
    ).toEqual([a.id, b.id].sort());
    expect((await store.listJobs({ taskId: "task-2", limit: 100 })).items.map((job) => job.id)).toEqual([
      b.id,
    ]);
  });

  describe("retention", () => {
    const runId = "run_archive_1";
    const jobs = [0, 1, 2].map((i) =>
      makeFinishedJob({
        status: "completed",
        failure: null,
        reward: i / 2,
        metadata: { runId, taskId: `t${i}` },
      }),
    );
    const running = makeJob({ status: "active", stage: "run", metadata: { runId } });

    beforeAll(async () => {
      await store.prisma.$executeRawUnsafe(
        `INSERT INTO training_runs (id, name, status, created_at_ms, updated_at_ms) VALUES ($1, 'r', 'active', 1, 1)`,
        runId,
      );
      await store.insertJobs([...jobs, running]);
      for (const job of jobs) {
        await store.appendTurns(conversation(job.id, 3));
        await store.appendToolCalls([makeToolCall(job.id, 0, 0), makeToolCall(job.id, 1, 0)]);
      }
    });

    it("refuses an active run (409) and an unknown one (404)", async () => {
      await expect(store.archive.archiveRun(runId)).rejects.toMatchObject({ failure: { code: "CONFLICT" } });
      await expect(store.archive.archiveRun("run_nope")).rejects.toMatchObject({
        failure: { code: "NOT_FOUND" },
      });
    });

    it("moves a finished run's trajectories to gzip JSONL, keeps job rows, serves reads from the archive", async () => {
      const before = await Promise.all(
        jobs.map(async (job) => [await store.listTurns(job.id), await store.listToolCalls(job.id)]),
      );
      await store.prisma.$executeRawUnsafe(
        `UPDATE training_runs SET status = 'finished' WHERE id = $1`,
        runId,
      );
      const result = await store.archive.archiveRun(runId);
      expect(result.archivedJobs).toBe(3);
      expect(result.archivedBytes).toBeGreaterThan(0);
      const left = await store.prisma.$queryRawUnsafe<{ n: bigint }[]>(
        `SELECT count(*) AS n FROM turns WHERE job_id = ANY($1::text[])`,
        jobs.map((job) => job.id),
      );
      expect(Number(left[0]?.n)).toBe(0);
      const after = await Promise.all(
        jobs.map(async (job) => [await store.listTurns(job.id), await store.listToolCalls(job.id)]),
      );
      expect(after).toEqual(before);
      expect(
        (await store.listJobs({ runId, status: "completed", limit: 100 })).items
          .map((job) => job.reward)
          .sort(),
      ).toEqual([0, 0.5, 1]);

      const lines = gunzipSync(await readFile(result.file))
        .toString("utf8")
        .trim()
        .split("\n");
      expect(lines.map((line) => JSON.parse(line).jobId).sort()).toEqual(jobs.map((job) => job.id).sort());
      expect(await readdir(archiveDir)).toEqual(["run_archive_1.jsonl.gz"]);

      expect((await store.archive.archiveRun(runId)).archivedJobs).toBe(0);
      expect((await store.listTurns(running.id)).length).toBe(0);
    });

    it("a store that cannot read the archive says the trajectory is archived (4xx), not empty", async () => {
      const other = await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
      try {
        const error = await other.listTurns(jobs[0]?.id as string).catch((e: unknown) => e);
        expect(failureOf(error)).toMatchObject({
          kind: "request",
          cause: "caller",
          message: expect.stringMatching(/archived at .* no archive directory/),
        });
        await expect(other.archive.archiveRun(runId)).rejects.toMatchObject({
          failure: { code: "UNAVAILABLE" },
        });
      } finally {
        await other.close();
      }
    });
  });
});

describe("migration store_fast on existing rows", () => {
  const schema = freshSchemaName();
  let before = "";
  beforeAll(requirePostgres);
  afterAll(async () => {
    await dropSchema(schema);
    if (before) await rm(before, { recursive: true, force: true });
  });

  it("backfills run_id and task_id from metadata and keeps old whole-prompt turns readable", async () => {
    before = await mkdtemp(path.join(tmpdir(), "raas-migrations-"));
    for (const name of await readdir(DEFAULT_MIGRATIONS_DIR)) {
      if (name < "20261130210000")
        await cp(path.join(DEFAULT_MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
    }
    const database = await openDatabase({ databaseUrl: TEST_DATABASE_URL, schema });
    try {
      await migrate(database.migrationTarget, { migrationsDir: before });
      await database.sql.execute(
        `INSERT INTO jobs (id, kind, status, payload, metadata, created_at_ms, updated_at_ms)
         VALUES ('job_old', 'math', 'completed', '{}', '{"runId":"run_old","taskId":"t-9"}', 1, 1)`,
        [],
      );
      await database.sql.execute(
        `INSERT INTO turns (job_id, index, prompt_ids, response_ids, logprobs, prompt_tokens, response_tokens, latency_ms, created_at_ms)
         VALUES ('job_old', 0, '\\x01000000feffffff'::bytea, '\\x05000000'::bytea, '\\x00000000'::bytea, 2, 1, 1, 1)`,
        [],
      );
    } finally {
      await database.close();
    }
    const store = await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
    try {
      expect((await store.listJobs({ runId: "run_old", limit: 100 })).items.map((job) => job.id)).toEqual([
        "job_old",
      ]);
      expect((await store.listJobs({ taskId: "t-9", limit: 100 })).items.map((job) => job.id)).toEqual([
        "job_old",
      ]);
      const turns = await store.listTurns("job_old");
      expect(turns.map((turn) => [turn.promptIds, turn.responseIds])).toEqual([[[1, -2], [5]]]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
