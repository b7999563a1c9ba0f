import { MemoryJobQueue } from "@raas/engine";
import { describeImagePlacementContract } from "./support/image-placement-contract";

describeImagePlacementContract("MemoryJobQueue", async (options) => {
  const queue = new MemoryJobQueue(options);
  return { queue, openPeer: async () => queue, dispose: () => queue.close() };
});
