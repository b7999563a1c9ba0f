// Teacher scores (on-policy distillation) through every JobStore adapter: one row per job, a later
// score replacing the earlier, the first token's missing logprob kept as null through the Float32
// column, a missing teacher's reason kept, and the score gone with the trajectory it scored.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type JobStore, MemoryJobStore } from "@raas/engine";
import type { TTeacherScore } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobStore } from "../src/index";
import { makeJob } from "./support/job-fixtures";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";

let pgliteDir = "";
const schema = freshSchemaName();
const adapters: { name: string; open(): Promise<JobStore>; cleanup(): Promise<void> }[] = [
  { name: "MemoryJobStore", open: async () => new MemoryJobStore(), cleanup: async () => {} },
  {
    name: "PrismaJobStore on PGlite",
    open: async () => {
      pgliteDir = await mkdtemp(path.join(tmpdir(), "raas-db-teacher-"));
      return createJobStore({ dataDir: pgliteDir });
    },
    cleanup: () => rm(pgliteDir, { recursive: true, force: true }),
  },
  {
    name: "PrismaJobStore on PostgreSQL",
    open: async () => {
      await requirePostgres();
      return createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
    },
    cleanup: () => dropSchema(schema),
  },
];

function score(jobId: string, overrides: Partial<TTeacherScore> = {}): TTeacherScore {
  return {
    jobId,
    teacher: { policyId: "teacher" },
    backendId: "t1",
    scoredTokens: 4,
    // Float32-exact values, so every adapter reads back what it was given.
    logprobs: [null, -0.5, -1.25, -3],
    missingReason: null,
    createdAtMs: 1_000,
    ...overrides,
  };
}

for (const adapter of adapters) {
  describe(`teacher scores in ${adapter.name}`, () => {
    let store: JobStore;

    beforeAll(async () => {
      store = await adapter.open();
    });

    afterAll(async () => {
      await store?.close();
      await adapter.cleanup();
    });

    it("keeps one score per job, the later replacing the earlier", async () => {
      const [a, b] = [makeJob(), makeJob()];
      await store.insertJobs([a, b]);
      expect(await store.getTeacherScore(a.id)).toBeNull();
      const missing = score(b.id, {
        teacher: { backendId: "t-down" },
        backendId: null,
        logprobs: null,
        missingReason: "the teacher failed: connection refused",
      });
      // One flush may carry two scores of a job (a retried attempt): the last one wins.
      await store.appendTeacherScores([score(a.id, { backendId: "t0" }), score(a.id), missing]);
      expect(await store.getTeacherScore(a.id)).toEqual(score(a.id));
      expect(await store.getTeacherScore(b.id)).toEqual(missing);
      await store.appendTeacherScores([score(b.id, { createdAtMs: 2_000 })]);
      expect(await store.getTeacherScore(b.id)).toEqual(score(b.id, { createdAtMs: 2_000 }));
    });

    it("removes the score with the trajectory (a restarted attempt scores again)", async () => {
      const job = makeJob();
      await store.insertJobs([job]);
      await store.appendTeacherScores([score(job.id)]);
      await store.deleteTrajectory(job.id);
      expect(await store.getTeacherScore(job.id)).toBeNull();
    });
  });
}
