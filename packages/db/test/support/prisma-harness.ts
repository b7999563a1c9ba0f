import type { JobStore } from "@raas/engine";
import type { PrismaJobStore } from "../../src/index";
import type { StoreHarness } from "./job-store-contract";

const TABLES = ["jobs", "turns", "tool_calls", "sandbox_events"];

/** A contract harness over one migrated Prisma store, emptied with TRUNCATE between tests. */
export function prismaHarness(
  open: () => Promise<PrismaJobStore>,
  cleanup: () => Promise<void>,
): StoreHarness {
  return {
    open,
    logprobsAsFloat32: true,
    async reset(store: JobStore) {
      await (store as PrismaJobStore).prisma.$executeRawUnsafe(`TRUNCATE ${TABLES.join(", ")}`);
      return store;
    },
    async dispose(store: JobStore) {
      try {
        await store.close();
      } finally {
        await cleanup();
      }
    },
  };
}
