import { MemoryEventBus } from "@raas/engine";
import { describeEventBusContract } from "./support/event-bus-contract";

// The reference adapter: one process, so its "peer" is itself.
describeEventBusContract("MemoryEventBus", async () => {
  const bus = new MemoryEventBus();
  return { bus, openPeer: async () => bus, dispose: () => bus.close() };
});
