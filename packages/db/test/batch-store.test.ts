import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BatchStore, MemoryBatchStore } from "@raas/training";
import { describe, expect, it } from "vitest";
import { createJobStore, PrismaBatchStore, type PrismaJobStore } from "../src/index";
import { makeRun, makeStep } from "./support/batch-fixtures";
import { type BatchStoreHarness, describeBatchStoreContract } from "./support/batch-store-contract";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";

// CASCADE: the older `batches` table still references `training_runs`.
const TABLES = ["training_groups", "training_steps", "training_runs", "policies"];

describeBatchStoreContract("MemoryBatchStore", {
  open: async () => new MemoryBatchStore(),
  reset: async () => new MemoryBatchStore(),
  dispose: (store) => store.close(),
});

/** A batch store over one migrated job store's client, emptied with TRUNCATE between tests. */
function prismaHarness(open: () => Promise<PrismaJobStore>, cleanup: () => Promise<void>): BatchStoreHarness {
  const jobStores = new Map<BatchStore, PrismaJobStore>();
  return {
    async open() {
      const jobStore = await open();
      const store = new PrismaBatchStore(jobStore.prisma);
      jobStores.set(store, jobStore);
      return store;
    },
    async reset(store) {
      await jobStores.get(store)?.prisma.$executeRawUnsafe(`TRUNCATE ${TABLES.join(", ")} CASCADE`);
      return store;
    },
    async dispose(store) {
      try {
        await store.close();
        await jobStores.get(store)?.close();
      } finally {
        await cleanup();
      }
    },
  };
}

let pgliteDir = "";
describeBatchStoreContract(
  "PrismaBatchStore on PGlite",
  prismaHarness(
    async () => {
      pgliteDir = await mkdtemp(path.join(tmpdir(), "raas-db-batches-"));
      return createJobStore({ dataDir: pgliteDir });
    },
    () => rm(pgliteDir, { recursive: true, force: true }),
  ),
);

const schema = freshSchemaName();
describeBatchStoreContract(
  "PrismaBatchStore on PostgreSQL",
  prismaHarness(
    async () => {
      await requirePostgres();
      return createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
    },
    () => dropSchema(schema),
  ),
);

describe("PrismaBatchStore: what only a database checks", () => {
  it("refuses a second run with the same run key and a step of an unknown run, with 4xx codes", async () => {
    const jobStore = await createJobStore({ dataDir: "memory://" });
    try {
      const store = new PrismaBatchStore(jobStore.prisma);
      const run = makeRun({ runKey: "same" });
      await store.insertRun(run);
      await expect(store.insertRun(makeRun({ runKey: "same" }))).rejects.toMatchObject({
        failure: {
          code: "CONFLICT",
          message: expect.stringContaining('run key "same"'),
        },
      });
      await expect(store.insertStep(makeStep("run_unknown"))).rejects.toMatchObject({
        failure: {
          code: "NOT_FOUND",
          message: "run run_unknown does not exist",
        },
      });
      expect(await store.listRuns(10)).toEqual([run]);
    } finally {
      await jobStore.close();
    }
  });
});
