import type { TSandboxEvent } from "@raas/shared";
import { describe, expect, it } from "vitest";
import type { SandboxEventRecord, SandboxEventStore } from "../ports/sandbox-event-store.port";
import { MemorySandboxEventStore } from "./memory-sandbox-event-store";
import { SandboxEventRecorder } from "./sandbox-event-recorder";

function event(sandboxId: string, type: string, atMs: number): TSandboxEvent {
  return { sandboxId, jobId: null, type, state: "ready", detail: {}, atMs };
}

/** A store whose writes fail while `failing` is set (a database that is down), counting batches. */
class FlakyStore extends MemorySandboxEventStore {
  failing = false;
  batches: number[] = [];
  override async appendEvents(events: readonly SandboxEventRecord[]): Promise<void> {
    this.batches.push(events.length);
    if (this.failing) throw new Error("database down");
    await super.appendEvents(events);
  }
}

describe("SandboxEventRecorder", () => {
  it("stores events in batches with host id and runtime, in order", async () => {
    const store = new FlakyStore();
    const recorder = new SandboxEventRecorder({
      store,
      hostId: "node-7:1",
      runtime: "bubblewrap",
      maxBatch: 50,
    });
    for (let i = 0; i < 120; i += 1) recorder.record(event(`sb${i}`, "created", i));
    await recorder.flush();
    expect(store.batches.every((size) => size <= 50)).toBe(true);
    expect(store.batches.reduce((a, b) => a + b, 0)).toBe(120);
    const stored = await store.listEvents({ limit: 1_000 });
    expect(stored).toHaveLength(120);
    expect(stored[0]).toMatchObject({
      sandboxId: "sb119",
      hostId: "node-7:1",
      detail: { runtime: "bubblewrap" },
    });
    expect((await store.getSandbox("sb3"))?.runtime).toBe("bubblewrap");
    expect(recorder.stats).toEqual({ recorded: 120, stored: 120, dropped: 0, failedFlushes: 0 });
  });

  it("keeps events while the store fails and stores them once it is back", async () => {
    const store = new FlakyStore();
    store.failing = true;
    const recorder = new SandboxEventRecorder({ store, runtime: "local" });
    recorder.record(event("sb1", "created", 1));
    recorder.record(event("sb1", "closed", 2));
    await recorder.flush();
    expect(recorder.stats).toMatchObject({ stored: 0, failedFlushes: 1 });
    store.failing = false;
    await recorder.close();
    expect((await store.listEvents({ sandboxId: "sb1" })).map((e) => e.type)).toEqual(["closed", "created"]);
    expect(recorder.stats).toMatchObject({ recorded: 2, stored: 2, dropped: 0 });
  });

  it("drops the oldest events beyond maxBuffered while the store fails, and counts them", async () => {
    const store = new FlakyStore();
    store.failing = true;
    const recorder = new SandboxEventRecorder({ store, runtime: "local", maxBuffered: 10, maxBatch: 5 });
    for (let i = 0; i < 25; i += 1) recorder.record(event(`sb${i}`, "created", i));
    await recorder.flush();
    store.failing = false;
    await recorder.close();
    const kept = (await store.listEvents({ limit: 100 })).map((e) => e.sandboxId);
    expect(kept).toHaveLength(10);
    expect(kept).toContain("sb24");
    expect(kept).not.toContain("sb0");
    expect(recorder.stats.dropped).toBe(15);
  });

  it("ignores events after close", async () => {
    const store: SandboxEventStore = new MemorySandboxEventStore();
    const recorder = new SandboxEventRecorder({ store, runtime: "local" });
    await recorder.close();
    recorder.record(event("late", "created", 1));
    await recorder.flush();
    expect(await store.listEvents()).toEqual([]);
  });
});
