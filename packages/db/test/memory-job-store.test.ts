import { MemoryJobStore } from "@raas/engine";
import { describeJobStoreContract } from "./support/job-store-contract";

// The reference adapter: the Prisma stores must behave the same way.
describeJobStoreContract("MemoryJobStore", {
  open: async () => new MemoryJobStore(),
  reset: async () => new MemoryJobStore(),
  dispose: (store) => store.close(),
  logprobsAsFloat32: false,
});
