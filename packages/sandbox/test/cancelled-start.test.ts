// A sandbox start cut short because its job was cancelled is a cancellation in the stored records
// and the summary, not a start failure; a launcher that cannot start still is one.
import { MemorySandboxEventStore, SandboxEventRecorder } from "@raas/engine";
import { afterAll, describe, expect, it } from "vitest";
import { BubblewrapRuntime } from "../src/index";
import { createTestRuntime } from "./support/sandbox-fixture";

describe("a cancelled sandbox start", () => {
  const fixture = createTestRuntime();
  const store = new MemorySandboxEventStore();
  const recorder = new SandboxEventRecorder({ store, hostId: "node-1:1", runtime: "bubblewrap" });
  fixture.runtime.onEvent((event) => recorder.record(event));
  afterAll(async () => {
    await recorder.close();
    await fixture.dispose();
  });

  it("counts as cancelled, apart from failed starts", async () => {
    const before = new AbortController();
    before.abort();
    await expect(fixture.runtime.create({ jobId: "job_before" }, before.signal)).rejects.toThrow(/cancelled/);

    // Cancelled while the launcher is starting: right after its `created` event.
    const during = new AbortController();
    const stop = fixture.runtime.onEvent((event) => {
      if (event.type === "created") during.abort();
    });
    await expect(fixture.runtime.create({ jobId: "job_during" }, during.signal)).rejects.toThrow(/cancelled/);
    stop();

    const broken = new BubblewrapRuntime({
      baseDir: fixture.baseDir,
      bwrapPath: "/bin/false",
      warn: () => {},
    });
    broken.onEvent((event) => recorder.record(event));
    await expect(broken.create({ jobId: "job_broken" })).rejects.toMatchObject({
      failure: { reason: "start_failed" },
    });

    await recorder.flush();
    expect(await store.summarize()).toMatchObject({
      sandboxes: 3,
      cancelled: 2,
      startFailed: 1,
      live: 0,
      byState: { closed: 2, failed: 1 },
      byCloseReason: { cancelled: 2, start_failed: 1 },
    });
    const [cancelled] = await store.listEvents({ jobId: "job_during", type: "closed" });
    expect(cancelled).toMatchObject({ state: "closed", detail: { reason: "cancelled" } });
  });
});
