import { MemoryJobQueue } from "@raas/engine";
import { describeJobQueueContract } from "./support/job-queue-contract";

// The reference adapter: the Redis queue must behave the same way.
describeJobQueueContract("MemoryJobQueue", async () => {
  const queue = new MemoryJobQueue();
  return { queue, openPeer: async () => queue, dispose: () => queue.close() };
});
