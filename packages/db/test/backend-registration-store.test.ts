import {
  type BackendRegistrationStore,
  MemoryBackendRegistrationStore,
  type StoredBackend,
} from "@raas/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobStore, PrismaBackendRegistrationStore, type PrismaJobStore } from "../src/index";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";

const gpu = (id: string, extra: Partial<StoredBackend> = {}): StoredBackend => ({
  id,
  kind: "vllm",
  baseUrl: `http://${id}:8000`,
  modelName: "Qwen/Qwen3-8B",
  weightVersion: null,
  maxConcurrency: null,
  policyId: "default",
  state: "active",
  ...extra,
});

/** What every `BackendRegistrationStore` adapter must do: keep the last save per id, bump its revision. */
function describeContract(
  name: string,
  open: () => Promise<{ store: BackendRegistrationStore; close(): Promise<void> }>,
) {
  describe(`BackendRegistrationStore contract: ${name}`, () => {
    let opened: { store: BackendRegistrationStore; close(): Promise<void> };
    beforeAll(async () => {
      opened = await open();
    }, 240_000);
    afterAll(() => opened?.close());

    it("keeps the last save of each id, oldest registration first, tombstones included", async () => {
      const { store } = opened;
      expect(await store.list()).toEqual([]);
      const first = await store.save(gpu("a", { weightVersion: "step-1", maxConcurrency: 8 }), 1_000);
      expect(first).toEqual({
        ...gpu("a", { weightVersion: "step-1", maxConcurrency: 8 }),
        revision: 1,
        updatedAtMs: 1_000,
      });
      await store.save(gpu("b", { kind: "sglang", policyId: "run-b" }), 2_000);
      const drained = await store.save(gpu("a", { state: "draining", weightVersion: "step-2" }), 3_000.5);
      expect(drained).toMatchObject({
        revision: 2,
        state: "draining",
        maxConcurrency: null,
        updatedAtMs: 3_000.5,
      });
      const removed = await store.save(
        gpu("b", { kind: "sglang", state: "removed", policyId: "run-b" }),
        4_000,
      );
      expect(removed.revision).toBe(2);
      expect(await store.list()).toEqual([
        { ...gpu("a", { state: "draining", weightVersion: "step-2" }), revision: 2, updatedAtMs: 3_000.5 },
        {
          ...gpu("b", { kind: "sglang", state: "removed", policyId: "run-b" }),
          revision: 2,
          updatedAtMs: 4_000,
        },
      ]);
    });

    it("gives concurrent saves of one id distinct revisions", async () => {
      const { store } = opened;
      const saved = await Promise.all(
        Array.from({ length: 6 }, (_, i) => store.save(gpu("race", { weightVersion: `v${i}` }), 5_000 + i)),
      );
      expect(saved.map((record) => record.revision).sort()).toEqual([1, 2, 3, 4, 5, 6]);
      expect((await store.list()).find((record) => record.id === "race")?.revision).toBe(6);
    });
  });
}

describeContract("MemoryBackendRegistrationStore", async () => ({
  store: new MemoryBackendRegistrationStore(),
  async close() {},
}));

describeContract("PrismaBackendRegistrationStore on PGlite", async () => {
  const jobStore = await createJobStore({ dataDir: "memory://" });
  return { store: new PrismaBackendRegistrationStore(jobStore.prisma), close: () => jobStore.close() };
});

describeContract("PrismaBackendRegistrationStore on PostgreSQL", async () => {
  await requirePostgres();
  const schema = freshSchemaName();
  let jobStore: PrismaJobStore | null = null;
  jobStore = await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
  const opened = jobStore;
  return {
    store: new PrismaBackendRegistrationStore(opened.prisma),
    async close() {
      await opened.close();
      await dropSchema(schema);
    },
  };
});
