// Issue 31 part 8: a long run's trajectories fill the store. A run's retention policy moves the
// trajectories of its finished steps to the archive while the run goes on, never touching what a
// running step or a carried group still uses. Real PGlite (file-backed) and real PostgreSQL.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { JobRecord } from "@raas/engine";
import type { TGroupMember, TJobStatus, TRunRetention } from "@raas/shared";
import { type GroupRecord, RetentionSystem, type StepRecord } from "@raas/training";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobStore, PrismaBatchStore, type PrismaJobStore } from "../src/index";
import { makeGroup, makeRun, makeStep } from "./support/batch-fixtures";
import { makeJob, makeToolCall, makeTurn } from "./support/job-fixtures";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";

const NOW_MS = 1_800_000_000_000;

interface Backend {
  name: string;
  open(archiveDir: string): Promise<PrismaJobStore>;
  cleanUp(): Promise<void>;
}

let pgliteDir = "";
const schema = freshSchemaName();
const backends: Backend[] = [
  {
    name: "pglite",
    async open(archiveDir) {
      pgliteDir = await mkdtemp(path.join(tmpdir(), "raas-retention-pglite-"));
      return createJobStore({ dataDir: pgliteDir, archiveDir, pgliteMaintenance: { checkEveryMs: 0 } });
    },
    cleanUp: () => rm(pgliteDir, { recursive: true, force: true }),
  },
  {
    name: "postgres",
    async open(archiveDir) {
      await requirePostgres();
      return createJobStore({ databaseUrl: TEST_DATABASE_URL, schema, archiveDir });
    },
    cleanUp: () => dropSchema(schema),
  },
];

const member = (slot: number, jobId: string, status: TGroupMember["status"] = "finished"): TGroupMember => ({
  slot,
  jobId,
  status,
  reward: status === "finished" ? slot % 2 : null,
  failureKind: null,
  attempts: 1,
  dispatchVersion: 1,
  isStale: false,
  carriedFromStepId: null,
  rolloutMs: 1_000,
  generatedTokens: 100,
  pastJobIds: [],
});

describe.each(backends)("run retention ($name)", (backend) => {
  let store: PrismaJobStore;
  let batches: PrismaBatchStore;
  let archiveDir = "";

  beforeAll(async () => {
    archiveDir = await mkdtemp(path.join(tmpdir(), "raas-retention-archive-"));
    store = await backend.open(archiveDir);
    batches = new PrismaBatchStore(store.prisma);
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    await backend.cleanUp();
    await rm(archiveDir, { recursive: true, force: true });
  });

  /** A job of `step` with two turns and a tool call, in `status`. */
  async function addJob(runId: string, step: StepRecord, name: string, status: TJobStatus = "completed") {
    const id = `job_${runId}_${name}`;
    const finished = status === "completed" || status === "failed" || status === "cancelled";
    const job: JobRecord = makeJob({
      id,
      status,
      stage: finished ? null : "run",
      batchId: step.id,
      metadata: { runId, taskId: "t-1" },
      finishedAtMs: finished ? NOW_MS - 1_000 : null,
      reward: finished ? 1 : null,
    });
    await store.insertJobs([job]);
    await store.appendTurns([makeTurn(id, 0), makeTurn(id, 1, { text: `turn of ${name}` })]);
    await store.appendToolCalls([makeToolCall(id, 0, 0)]);
    return id;
  }

  async function addRun(retention: TRunRetention | null) {
    const run = makeRun({ retention, runKey: null, status: "active" });
    await batches.insertRun(run);
    return run;
  }

  async function addStep(runId: string, index: number, closedAtMs: number | null): Promise<StepRecord> {
    const step = makeStep(runId, {
      index,
      stepKey: `step-${index}`,
      status: closedAtMs === null ? "running" : "completed",
      closedAtMs,
    });
    await batches.insertStep(step);
    return step;
  }

  async function addGroup(step: StepRecord, members: TGroupMember[], overrides: Partial<GroupRecord> = {}) {
    const group = makeGroup(step, { members, ...overrides });
    await batches.insertGroups([group]);
    return group;
  }

  async function storedTurnRows(jobId: string): Promise<number> {
    const rows = await store.sql.query<{ n: number }>(
      "SELECT (SELECT count(*) FROM turns WHERE job_id = $1)::int + (SELECT count(*) FROM tool_calls WHERE job_id = $1)::int AS n",
      [jobId],
    );
    return rows[0]?.n ?? -1;
  }

  const retentionAt = (nowMs: number) =>
    new RetentionSystem({
      store: batches,
      archive: store.archive,
      clock: { now: () => nowMs, setTimer: () => () => {} },
    });

  it("archives exactly the finished steps the policy names, keeps what is in use, reads it back", async () => {
    const run = await addRun({ archiveAfterSteps: 1 });
    const s0 = await addStep(run.id, 0, NOW_MS - 30_000);
    const s1 = await addStep(run.id, 1, NOW_MS - 20_000);
    const s2 = await addStep(run.id, 2, null);
    // Step 0: a delivered group, a redundant job cancelled outside any group, a group carried
    // into step 1 and one still carried (its finished sample waits for the next step).
    const a1 = await addJob(run.id, s0, "a1");
    const a2 = await addJob(run.id, s0, "a2", "failed");
    const redundant = await addJob(run.id, s0, "redundant", "cancelled");
    const d1 = await addJob(run.id, s0, "d1");
    const waiting = await addJob(run.id, s0, "waiting");
    await addGroup(s0, [member(0, a1), member(1, a2)]);
    const s1Taker = makeGroup(s1, { members: [member(0, d1), member(1, "")] });
    await addGroup(s0, [member(0, d1)], { state: "carried", carriedIntoGroupId: s1Taker.id });
    await addGroup(s0, [member(0, waiting)], { state: "carried" });
    // Step 1: the group that took step 0's sample, and a group carried into the running step 2.
    const e1 = await addJob(run.id, s1, "e1");
    s1Taker.members[1] = member(1, e1);
    await batches.insertGroups([s1Taker]);
    const h1 = await addJob(run.id, s1, "h1");
    const s2Taker = makeGroup(s2, { members: [member(0, h1)] });
    await addGroup(s1, [member(0, h1)], { state: "carried", carriedIntoGroupId: s2Taker.id });
    await batches.insertGroups([s2Taker]);
    // Step 2 runs: a finished and a running job.
    const f1 = await addJob(run.id, s2, "f1");
    const f2 = await addJob(run.id, s2, "f2", "active");
    await addGroup(s2, [member(0, f1), member(1, f2, "running")], { state: "running" });
    // A run without a policy, with a finished step: untouched.
    const other = await addRun(null);
    const o0 = await addStep(other.id, 0, NOW_MS - 60_000);
    await addStep(other.id, 1, NOW_MS - 50_000);
    const o1 = await addJob(other.id, o0, "o1");
    await addGroup(o0, [member(0, o1)]);
    const before = await store.listTurns(a1);
    expect(before).toHaveLength(2);

    const pass = await retentionAt(NOW_MS).runOnce();

    const archived = [a1, a2, redundant, d1, e1];
    const kept = [waiting, h1, f1, f2, o1];
    expect(pass.archivedJobs).toBe(archived.length);
    for (const id of archived) expect(await storedTurnRows(id), id).toBe(0);
    for (const id of kept) expect(await storedTurnRows(id), id).toBe(3);
    for (const id of archived)
      expect((await store.getJob(id))?.status, id).toMatch(/completed|failed|cancelled/);
    // Read back from the archive exactly as stored.
    expect(await store.listTurns(a1)).toEqual(before);
    expect(await store.listToolCalls(e1)).toHaveLength(1);
    expect((await store.archive.readArchived(redundant))?.runId).toBe(run.id);
    expect(await store.archive.readArchived(waiting)).toBeNull();
    // Steps 0 and 1 each still hold a sample back (carried, taken by the running step).
    expect(pass.archivedSteps).toEqual([]);

    // Idempotent: nothing left to move until the held samples are released.
    expect((await retentionAt(NOW_MS).runOnce()).archivedJobs).toBe(0);

    // Step 2 closes and step 3 takes the waiting group: now everything of steps 0–2 is due.
    s2.status = "completed";
    s2.closedAtMs = NOW_MS;
    await batches.saveStep(s2);
    const s3 = await addStep(run.id, 3, null);
    const s3Taker = makeGroup(s3, { members: [member(0, waiting)] });
    await batches.insertGroups([s3Taker]);
    const waitingGroup = (await batches.listCarriedGroups(run.id))[0];
    expect(waitingGroup?.members[0]?.jobId).toBe(waiting);
    if (waitingGroup) {
      waitingGroup.carriedIntoGroupId = s3Taker.id;
      await batches.saveGroup(waitingGroup);
    }
    const later = await retentionAt(NOW_MS + 1_000).runOnce();
    // h1 and f1 move; f2 is still running; `waiting` is used by the running step 3.
    expect(later.archivedJobs).toBe(2);
    for (const id of [h1, f1]) expect(await storedTurnRows(id), id).toBe(0);
    for (const id of [waiting, f2]) expect(await storedTurnRows(id), id).toBe(3);
    expect(later.archivedSteps).toEqual([s1.id]);
  }, 120_000);

  it("archiveAfterMs: only steps closed at least that long ago", async () => {
    const run = await addRun({ archiveAfterMs: 60_000 });
    const old = await addStep(run.id, 0, NOW_MS - 120_000);
    const recent = await addStep(run.id, 1, NOW_MS - 30_000);
    const oldJob = await addJob(run.id, old, "old");
    const recentJob = await addJob(run.id, recent, "recent");
    await addGroup(old, [member(0, oldJob)]);
    await addGroup(recent, [member(0, recentJob)]);

    const pass = await retentionAt(NOW_MS).runOnce();

    // (The pass covers every run of the store; the earlier test's run has its own steps.)
    expect(pass.archivedSteps).toContain(old.id);
    expect(pass.archivedSteps).not.toContain(recent.id);
    expect(await storedTurnRows(oldJob)).toBe(0);
    expect(await storedTurnRows(recentJob)).toBe(3);
    expect(await store.listTurns(oldJob)).toHaveLength(2);
  }, 60_000);
});
