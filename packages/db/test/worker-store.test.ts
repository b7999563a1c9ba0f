import { MemoryWorkerStore, type WorkerStore } from "@raas/engine";
import { createJobStore, type PrismaJobStore, PrismaWorkerStore } from "../src/index";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";
import { describeWorkerStoreContract, type WorkerStoreHarness } from "./support/worker-store-contract";

describeWorkerStoreContract("MemoryWorkerStore", {
  async open() {
    return [];
  },
  async reset() {
    // One process: the racers share the one store, as they would share the server.
    const store = new MemoryWorkerStore();
    return [store, store, store];
  },
  async close() {},
});

/** Worker stores over `jobStores`, whose connections stay open across the suite's tests. */
function prismaHarness(openJobStores: () => Promise<PrismaJobStore[]>, cleanup: () => Promise<void>) {
  const jobStores = new Map<WorkerStore, PrismaJobStore>();
  const harness: WorkerStoreHarness = {
    async open() {
      const opened = await openJobStores();
      return opened.map((jobStore) => {
        const store = new PrismaWorkerStore(jobStore.prisma);
        jobStores.set(store, jobStore);
        return store;
      });
    },
    async reset(stores) {
      await jobStores.get(stores[0] as WorkerStore)?.prisma.$executeRawUnsafe("TRUNCATE workers");
      return stores;
    },
    async close() {
      try {
        for (const jobStore of new Set(jobStores.values())) await jobStore.close();
      } finally {
        await cleanup();
      }
    },
  };
  return harness;
}

describeWorkerStoreContract(
  "PrismaWorkerStore on PGlite",
  prismaHarness(
    async () => {
      const jobStore = await createJobStore({ dataDir: "memory://" });
      return [jobStore, jobStore, jobStore];
    },
    async () => {},
  ),
);

const schema = freshSchemaName();
describeWorkerStoreContract(
  "PrismaWorkerStore on PostgreSQL (three servers, each with its own pool)",
  prismaHarness(
    async () => {
      await requirePostgres();
      const first = await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
      const others = await Promise.all(
        [1, 2].map(() => createJobStore({ databaseUrl: TEST_DATABASE_URL, schema, migrate: false })),
      );
      return [first, ...others];
    },
    () => dropSchema(schema),
  ),
);
