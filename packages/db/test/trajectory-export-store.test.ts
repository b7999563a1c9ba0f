// The training export read through every JobStore adapter: a batch paged from the store, each row
// rebuilt from the stored turns (exact token ids, logprobs as the store keeps them).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type JobStore, MemoryJobStore, TrajectoryExporter } from "@raas/engine";
import { FailureError, type TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobStore } from "../src/index";
import { makeJob, makeTurn } from "./support/job-fixtures";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";

interface Adapter {
  name: string;
  open(): Promise<JobStore>;
  cleanup(): Promise<void>;
  float32: boolean;
}

let pgliteDir = "";
const schema = freshSchemaName();
const adapters: Adapter[] = [
  { name: "MemoryJobStore", open: async () => new MemoryJobStore(), cleanup: async () => {}, float32: false },
  {
    name: "PrismaJobStore on PGlite",
    open: async () => {
      pgliteDir = await mkdtemp(path.join(tmpdir(), "raas-db-export-"));
      return createJobStore({ dataDir: pgliteDir });
    },
    cleanup: () => rm(pgliteDir, { recursive: true, force: true }),
    float32: true,
  },
  {
    name: "PrismaJobStore on PostgreSQL",
    open: async () => {
      await requirePostgres();
      return createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
    },
    cleanup: () => dropSchema(schema),
    float32: true,
  },
];

for (const adapter of adapters) {
  describe(`trajectory export from ${adapter.name}`, () => {
    let store: JobStore;
    let exporter: TrajectoryExporter;
    const jobs: TJob[] = [];

    beforeAll(async () => {
      store = await adapter.open();
      exporter = new TrajectoryExporter({
        store,
        flush: async () => {},
        findJob: (id) => store.getJob(id),
      });
      for (let i = 0; i < 5; i += 1) {
        jobs.push(
          makeJob({ batchId: "bat_x", status: "completed", reward: i / 4, trainable: true, metadata: { i } }),
        );
      }
      await store.insertJobs([...jobs, makeJob({ batchId: "bat_other" })]);
      // Three exact turns per job: each prompt is the previous prompt + response + one observation id.
      await store.appendTurns(
        jobs.flatMap((job, j) => {
          const first = makeTurn(job.id, 0, {
            promptIds: [151_644, j, 7],
            responseIds: [40, 41],
            logprobs: [-0.1, -2.3],
          });
          const second = makeTurn(job.id, 1, {
            promptIds: [151_644, j, 7, 40, 41, 9],
            responseIds: [50],
            logprobs: [-0.7],
          });
          const third = makeTurn(job.id, 2, {
            promptIds: [151_644, j, 7, 40, 41, 9, 50, 10, 11],
            responseIds: [60, 61, 62],
            logprobs: [-1e-7, -3.217654321, -0.5],
          });
          return [third, first, second];
        }),
      );
    }, 60_000);
    afterAll(async () => {
      await store?.close();
      await adapter.cleanup();
    });

    it("pages every job of the batch once, each row exact against the stored turns", async () => {
      const rows = [];
      let cursor: string | undefined;
      do {
        const page = await exporter.exportBatch("bat_x", { limit: 2, ...(cursor ? { cursor } : {}) });
        expect(page.items.length).toBeLessThanOrEqual(2);
        rows.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(rows.map((row) => row.jobId)).toEqual(
        jobs
          .map((job) => job.id)
          .sort()
          .reverse(),
      );
      for (const row of rows) {
        const turns = await store.listTurns(row.jobId);
        const last = turns.at(-1)!;
        expect(row.tokens).toEqual([...last.promptIds, ...last.responseIds]);
        expect(row.lossMask).toEqual([0, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1]);
        const logprobs = [-0.1, -2.3, -0.7, -1e-7, -3.217654321, -0.5].map((x) =>
          adapter.float32 ? Math.fround(x) : x,
        );
        expect(row.logprobs.filter((x) => x !== null)).toEqual(logprobs);
        expect(row).toMatchObject({ tokenExact: true, turnCount: 3, promptLength: 3, batchId: "bat_x" });
        expect(row.metadata).toEqual(jobs.find((job) => job.id === row.jobId)?.metadata);
      }
    });

    it("exports integer policy versions per token from the stored spans across a weight sync", async () => {
      const job = makeJob({ batchId: "bat_versions", status: "completed", reward: 1, trainable: true });
      await store.insertJobs([job]);
      // Turn 0 under policy version 3; a tool result [9 9], then turn 1 stopped by an
      // abort-and-continue weight sync after one token and finished under 4; a tool result [8],
      // then turn 2 under 4.
      await store.appendTurns([
        makeTurn(job.id, 0, {
          promptIds: [151_644, 7],
          responseIds: [40, 41],
          logprobs: [-0.5, -0.5],
          weightVersion: "3",
        }),
        makeTurn(job.id, 1, {
          promptIds: [151_644, 7, 40, 41, 9, 9],
          responseIds: [50, 51, 52],
          logprobs: [-0.5, -0.5, -0.5],
          weightVersion: "4",
          weightVersionSpans: [
            { start: 0, end: 1, weightVersion: "3" },
            { start: 1, end: 3, weightVersion: "4" },
          ],
        }),
        makeTurn(job.id, 2, {
          promptIds: [151_644, 7, 40, 41, 9, 9, 50, 51, 52, 8],
          responseIds: [60],
          logprobs: [-0.5],
          weightVersion: "4",
        }),
      ]);
      const row = await exporter.exportJob(job.id);
      expect(row.tokens).toEqual([151_644, 7, 40, 41, 9, 9, 50, 51, 52, 8, 60]);
      expect(row.lossMask).toEqual([0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1]);
      expect(row.tokenExact).toBe(true);
      expect(row.versions).toEqual([-1, -1, 3, 3, -1, -1, 3, 4, 4, -1, 4]);
      expect(row.turns.map((turn) => turn.weightVersionSpans.map((span) => span.weightVersion))).toEqual([
        ["3"],
        ["3", "4"],
        ["4"],
      ]);
      expect((await exporter.exportBatch("bat_versions", { limit: 5 })).items).toEqual([row]);
    });

    it("keeps a turn's top-k logprobs and exports them aligned to its sampled tokens", async () => {
      const job = makeJob({ batchId: "bat_top", status: "completed", reward: 1, trainable: true });
      await store.insertJobs([job]);
      const top = [
        [
          { tokenId: 40, logprob: -0.1 },
          { tokenId: 3, logprob: -2.5 },
        ],
        [
          { tokenId: 5, logprob: -0.2 },
          { tokenId: 41, logprob: -2.3 },
        ],
      ];
      await store.appendTurns([
        makeTurn(job.id, 0, {
          promptIds: [151_644, 7],
          responseIds: [40, 41],
          logprobs: [-0.1, -2.3],
          topLogprobs: top,
        }),
        makeTurn(job.id, 1, { promptIds: [151_644, 7, 40, 41, 9], responseIds: [50], logprobs: [-0.7] }),
      ]);
      const turns = await store.listTurns(job.id);
      expect(turns[0]?.topLogprobs).toEqual(top);
      expect(turns[1]).not.toHaveProperty("topLogprobs");
      const row = await exporter.exportJob(job.id);
      expect(row.lossMask).toEqual([0, 0, 1, 1, 0, 1]);
      expect(row.topLogprobs).toEqual([null, null, top[0], top[1], null, null]);
      const plain = await exporter.exportJob(jobs[0]!.id);
      expect(plain).not.toHaveProperty("topLogprobs");
    });

    it("exports one job, and says NOT_FOUND for an unknown job or batch", async () => {
      expect((await exporter.exportJob(jobs[2]!.id)).reward).toBe(0.5);
      await expect(exporter.exportJob("job_missing")).rejects.toBeInstanceOf(FailureError);
      await expect(exporter.exportBatch("bat_missing", { limit: 5 })).rejects.toMatchObject({
        failure: {
          code: "NOT_FOUND",
        },
      });
    });
  });
}
