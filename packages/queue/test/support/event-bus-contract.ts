import { BUS_CHANNELS, type EventBus } from "@raas/engine";
import { afterEach, describe, expect, it } from "vitest";
import { until } from "./until";

export interface BusFixture {
  bus: EventBus;
  /** Another process's bus on the same deployment. */
  openPeer: () => Promise<EventBus>;
  dispose: () => Promise<void>;
}

/** The behaviour every `EventBus` adapter shares. */
export function describeEventBusContract(name: string, open: () => Promise<BusFixture>): void {
  describe(`EventBus contract: ${name}`, () => {
    let fixture: BusFixture | undefined;
    const fresh = async () => {
      fixture = await open();
      return fixture;
    };
    afterEach(async () => {
      await fixture?.dispose();
      fixture = undefined;
    });

    it("delivers what one process publishes to every subscriber of that channel, in order", async () => {
      const { bus, openPeer } = await fresh();
      const peer = await openPeer();
      const first: string[] = [];
      const second: string[] = [];
      const workers: string[] = [];
      await bus.subscribe(BUS_CHANNELS.cancel, (m) => first.push(m));
      await bus.subscribe(BUS_CHANNELS.cancel, (m) => second.push(m));
      await bus.subscribe(BUS_CHANNELS.workers, (m) => workers.push(m));
      const sent = Array.from({ length: 20 }, (_, i) =>
        JSON.stringify({ jobIds: [`j${i}`], reason: "test" }),
      );
      for (const message of sent) await peer.publish(BUS_CHANNELS.cancel, message);
      await peer.publish(BUS_CHANNELS.workers, "w1 registered");
      await until(() => first.length === 20 && second.length === 20 && workers.length === 1, "all messages");
      expect(first).toEqual(sent);
      expect(second).toEqual(sent);
      expect(workers).toEqual(["w1 registered"]);
    });

    it("stops delivering to a listener once it unsubscribes, not to the others", async () => {
      const { bus } = await fresh();
      const gone: string[] = [];
      const staying: string[] = [];
      const unsubscribe = await bus.subscribe(BUS_CHANNELS.jobEvents, (m) => gone.push(m));
      await bus.subscribe(BUS_CHANNELS.jobEvents, (m) => staying.push(m));
      await bus.publish(BUS_CHANNELS.jobEvents, "one");
      await until(() => gone.length === 1 && staying.length === 1, "first message");
      await unsubscribe();
      await unsubscribe();
      await bus.publish(BUS_CHANNELS.jobEvents, "two");
      await until(() => staying.length === 2, "second message");
      expect(gone).toEqual(["one"]);
      expect(staying).toEqual(["one", "two"]);
    });

    it("delivers nothing after close and publishing then is a no-op", async () => {
      const { bus } = await fresh();
      const seen: string[] = [];
      await bus.subscribe(BUS_CHANNELS.cancel, (m) => seen.push(m));
      await bus.close();
      await expect(bus.publish(BUS_CHANNELS.cancel, "late")).resolves.toBeUndefined();
      const unsubscribe = await bus.subscribe(BUS_CHANNELS.cancel, (m) => seen.push(m));
      await expect(unsubscribe()).resolves.toBeUndefined();
      await expect(bus.close()).resolves.toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen).toEqual([]);
    });
  });
}
