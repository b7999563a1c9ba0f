import type { JobQueue } from "@raas/engine";
import { RedisJobQueue } from "../src/index";
import { describeImagePlacementContract } from "./support/image-placement-contract";
import { deleteKeys, freshPrefix, REDIS_URL } from "./support/redis-test-env";

// Against the real Redis, on a fresh key prefix per test; the peer is a second process's handle.
describeImagePlacementContract("RedisJobQueue", async (options) => {
  const prefix = freshPrefix();
  const open = () =>
    new RedisJobQueue({ url: REDIS_URL, prefix, stalledIntervalMs: 100, maxBlockMs: 200, ...options });
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
