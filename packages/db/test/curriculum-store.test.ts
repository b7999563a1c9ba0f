import { MemoryCurriculumStore } from "@raas/training";
import { createJobStore, PrismaCurriculumStore, type PrismaJobStore } from "../src/index";
import {
  type CurriculumStoreHarness,
  describeCurriculumStoreContract,
} from "./support/curriculum-store-contract";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";

describeCurriculumStoreContract("MemoryCurriculumStore", {
  open: async () => new MemoryCurriculumStore(),
  reset: async () => new MemoryCurriculumStore(),
  close: async () => {},
});

function prismaHarness(
  open: () => Promise<PrismaJobStore>,
  cleanup: () => Promise<void>,
): CurriculumStoreHarness {
  let jobStore: PrismaJobStore | null = null;
  return {
    async open() {
      jobStore = await open();
      return new PrismaCurriculumStore(jobStore.prisma);
    },
    async reset(store) {
      await jobStore?.prisma.$executeRawUnsafe(
        "TRUNCATE task_history, task_sampler_states, curriculum_snapshots",
      );
      return store;
    },
    async close() {
      try {
        await jobStore?.close();
      } finally {
        await cleanup();
      }
    },
  };
}

// PGlite runs the same PostgreSQL SQL; its migrations take a minute on a loaded machine, so the
// contract runs on the real server only.
const schema = freshSchemaName();
describeCurriculumStoreContract(
  "PrismaCurriculumStore on PostgreSQL",
  prismaHarness(
    async () => {
      await requirePostgres();
      return createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
    },
    () => dropSchema(schema),
  ),
);
