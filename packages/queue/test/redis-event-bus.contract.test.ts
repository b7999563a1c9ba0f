import type { EventBus } from "@raas/engine";
import { RedisEventBus } from "../src/index";
import { describeEventBusContract } from "./support/event-bus-contract";
import { freshPrefix, REDIS_URL } from "./support/redis-test-env";

// Pub/sub keeps no keys; the fresh prefix keeps the channels of concurrent tests apart.
describeEventBusContract("RedisEventBus", async () => {
  const prefix = freshPrefix();
  const bus = new RedisEventBus({ url: REDIS_URL, prefix });
  const peers: EventBus[] = [];
  return {
    bus,
    openPeer: async () => {
      const peer = new RedisEventBus({ url: REDIS_URL, prefix });
      peers.push(peer);
      return peer;
    },
    dispose: async () => {
      await Promise.all([bus, ...peers].map((b) => b.close()));
    },
  };
});
