import type { JobQueue } from "@raas/engine";
import { RedisJobQueue } from "../src/index";
import { describeJobQueueContract } from "./support/job-queue-contract";
import { deleteKeys, freshPrefix, REDIS_URL } from "./support/redis-test-env";

// The same contract as MemoryJobQueue, against the real Redis, on a fresh key prefix per test.
describeJobQueueContract("RedisJobQueue", async () => {
  const prefix = freshPrefix();
  const errors: string[] = [];
  const open = () =>
    new RedisJobQueue({
      url: REDIS_URL,
      prefix,
      stalledIntervalMs: 100,
      maxBlockMs: 200,
      onError: (message) => errors.push(message),
    });
  const queue = open();
  const peers: JobQueue[] = [];
  return {
    queue,
    openPeer: async () => {
      const peer = open();
      peers.push(peer);
      return peer;
    },
    dispose: async () => {
      await Promise.all([queue, ...peers].map((q) => q.close()));
      await deleteKeys(REDIS_URL, prefix);
    },
  };
});
