import {
  type BackendView,
  MAX_STORED_PREFETCH_REQUESTS,
  type TWorkerImages,
  type WorkerRecord,
  type WorkerStore,
} from "@raas/engine";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

export interface WorkerStoreHarness {
  /**
   * Opens the stores once for the suite: the first is the one under test, the others reach the
   * same data through their own connections (several servers), for the `markLost` race.
   */
  open(): Promise<WorkerStore[]>;
  /** Empties the stored workers before each test. */
  reset(stores: WorkerStore[]): Promise<WorkerStore[]>;
  close(stores: WorkerStore[]): Promise<void>;
}

function worker(
  id: string,
  overrides: Partial<WorkerRecord> = {},
): Omit<WorkerRecord, "status" | "stoppedAtMs" | "unhealthyReason" | "images" | "prefetchRequests"> {
  return {
    id,
    hostname: "node-3",
    pid: 4711,
    labels: ["apptainer", "node-3"],
    pools: { init: { concurrency: 4, active: 0 }, run: { concurrency: 8, active: 0 } },
    sandboxes: 0,
    backends: [],
    startedAtMs: 1_000,
    heartbeatAtMs: 1_000,
    ...overrides,
  };
}

/** A backend as a worker's pool reports it (`listBackends()`), with some traffic. */
function backendView(id: string, requests: number): BackendView {
  return {
    id,
    kind: "vllm",
    baseUrl: `http://${id}:8000`,
    modelName: "Qwen/Qwen3-8B",
    weightVersion: "step-3",
    policyId: "default",
    maxConcurrency: 64,
    lifecycle: "active",
    circuit: "closed",
    consecutiveFailures: 0,
    inFlight: 2,
    stickyJobs: 1,
    registeredAtMs: 1_000.25,
    lastHealthCheck: { atMs: 2_000, isHealthy: true },
    stats: {
      requests,
      errors: 0,
      aborted: 0,
      promptTokens: 1_200,
      cachedPromptTokens: 700,
      promptTokensWithKnownCache: 1_200,
      responseTokens: 300,
      prefixCacheHitRate: 700 / 1_200,
      requestsWithUnknownCachedTokens: 0,
      responseTokensPerSec: 12.5,
      meanLatencyMs: 41.5,
      reported: null,
    },
  };
}

/** An image cache as a worker reports it, with one prefetch done. */
function imagesReport(hits: number): TWorkerImages {
  return {
    capBytes: 20 * 1024 ** 3,
    usedBytes: 300_000_000,
    hits,
    misses: 1,
    evictions: 0,
    images: [
      {
        key: "oci-abc",
        references: ["/images/a.tar"],
        sizeBytes: 300_000_000,
        unpackMs: 2_500,
        hits,
        misses: 1,
      },
    ],
    prefetches: [
      {
        requestId: "p1",
        reference: "/images/a.tar",
        status: "done",
        wasCached: false,
        unpackMs: 2_500,
        error: null,
        updatedAtMs: 2_000,
      },
    ],
  };
}

/** What every `WorkerStore` adapter must do: registry, heartbeats, drain, stop and lost exactly once. */
export function describeWorkerStoreContract(name: string, harness: WorkerStoreHarness): void {
  describe(`WorkerStore contract: ${name}`, () => {
    let stores: WorkerStore[] = [];
    let store: WorkerStore;
    beforeAll(async () => {
      stores = await harness.open();
    });
    beforeEach(async () => {
      stores = await harness.reset(stores);
      store = stores[0] as WorkerStore;
    });
    afterAll(() => harness.close(stores));

    it("registers a worker as active and reads it back whole", async () => {
      await store.register(worker("w1", { startedAtMs: 1_000.5, heartbeatAtMs: 1_000.5 }));
      const expected: WorkerRecord = {
        ...worker("w1", { startedAtMs: 1_000.5, heartbeatAtMs: 1_000.5 }),
        status: "active",
        unhealthyReason: null,
        stoppedAtMs: null,
        images: null,
        prefetchRequests: [],
      };
      expect(await store.get("w1")).toEqual(expected);
      expect(await store.list()).toEqual([expected]);
      expect(await store.get("nope")).toBeNull();
    });

    it("records heartbeats with occupancy and sandbox count; unknown workers get null", async () => {
      await store.register(worker("w1"));
      const beat = await store.heartbeat("w1", {
        pools: { init: { concurrency: 4, active: 3 }, run: { concurrency: 8, active: 8 } },
        sandboxes: 11,
        atMs: 4_000,
      });
      expect(beat).toMatchObject({
        id: "w1",
        status: "active",
        pools: { init: { concurrency: 4, active: 3 }, run: { concurrency: 8, active: 8 } },
        sandboxes: 11,
        heartbeatAtMs: 4_000,
      });
      expect(await store.get("w1")).toEqual(beat);
      expect(await store.heartbeat("nope", { pools: {}, sandboxes: 0, atMs: 4_000 })).toBeNull();
    });

    it("keeps each beat's backend views; a beat without them leaves the stored ones; lost workers keep theirs", async () => {
      await store.register(worker("w1"));
      expect((await store.get("w1"))?.backends).toEqual([]);
      const backends = [backendView("gpu-1", 10), backendView("gpu-2", 0)];
      const beat = await store.heartbeat("w1", { pools: {}, sandboxes: 0, backends, atMs: 2_000 });
      expect(beat?.backends).toEqual(backends);
      await store.heartbeat("w1", { pools: {}, sandboxes: 0, atMs: 3_000 });
      expect((await store.get("w1"))?.backends).toEqual(backends);
      const lost = await store.markLost(5_000);
      expect(lost.map((w) => w.backends)).toEqual([backends]);
    });

    it("leaves the workers it is told are alive (heard on the bus) whatever their stored beat", async () => {
      await store.register(worker("w1"));
      await store.register(worker("w2"));
      await store.register(worker("w3"));
      const lost = await store.markLost(1_000_000, ["w2", "w3"]);
      expect(lost.map((w) => w.id)).toEqual(["w1"]);
      expect((await store.get("w2"))?.status).toBe("active");
      expect((await store.markLost(1_000_000, [])).map((w) => w.id).sort()).toEqual(["w2", "w3"]);
    });

    it("keeps the worker's own unhealthy reason from its beats until a beat clears it", async () => {
      await store.register(worker("w1"));
      const reason = "3 sandbox start(s) in a row failed on this worker: ENOSPC";
      const sick = await store.heartbeat("w1", {
        pools: {},
        sandboxes: 0,
        unhealthyReason: reason,
        atMs: 2_000,
      });
      expect(sick).toMatchObject({ status: "active", unhealthyReason: reason });
      await store.heartbeat("w1", { pools: {}, sandboxes: 0, atMs: 3_000 });
      expect((await store.list()).map((w) => w.unhealthyReason)).toEqual([reason]);
      await store.heartbeat("w1", { pools: {}, sandboxes: 0, unhealthyReason: null, atMs: 4_000 });
      expect((await store.get("w1"))?.unhealthyReason).toBeNull();
    });

    it("keeps each beat's image cache report; a beat without one leaves the stored one", async () => {
      await store.register(worker("w1"));
      expect(
        (await store.heartbeat("w1", { pools: {}, sandboxes: 0, images: imagesReport(3), atMs: 2_000 }))
          ?.images,
      ).toEqual(imagesReport(3));
      await store.heartbeat("w1", { pools: {}, sandboxes: 0, atMs: 3_000 });
      expect((await store.list())[0]?.images).toEqual(imagesReport(3));
    });

    it("appends prefetch requests to live workers only, keeps the newest, and loses none to a race", async () => {
      await store.register(worker("w1"));
      await store.register(worker("w2"));
      await store.register(worker("w3"));
      await store.markStopped("w3", 2_000);
      const request = {
        requestId: "p1",
        references: ["/images/a.tar", "/images/b.sif"],
        requestedAtMs: 2_000,
      };
      expect((await store.requestPrefetch(["w1", "w2", "w3", "nope"], request)).sort()).toEqual(["w1", "w2"]);
      expect((await store.get("w1"))?.prefetchRequests).toEqual([request]);
      expect((await store.get("w3"))?.prefetchRequests).toEqual([]);
      // A heartbeat (the worker's write) leaves the requests (the control plane's write) alone.
      expect(
        (await store.heartbeat("w1", { pools: {}, sandboxes: 0, atMs: 3_000 }))?.prefetchRequests,
      ).toEqual([request]);
      const ask = (index: number) => ({
        requestId: `r${index}`,
        references: ["/images/a.tar"],
        requestedAtMs: 3_000 + index,
      });
      // Ten at once through several connections (servers): every one lands, none overwrites another.
      await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          (stores[index % stores.length] ?? store).requestPrefetch(["w2"], ask(index)),
        ),
      );
      expect((await store.get("w2"))?.prefetchRequests.map((r) => r.requestId).sort()).toEqual(
        ["p1", ...Array.from({ length: 10 }, (_, index) => `r${index}`)].sort(),
      );
      // Past the bound the oldest go first.
      for (let index = 10; index < MAX_STORED_PREFETCH_REQUESTS + 10; index += 1)
        await store.requestPrefetch(["w2"], ask(index));
      const kept = (await store.get("w2"))?.prefetchRequests ?? [];
      expect(kept).toHaveLength(MAX_STORED_PREFETCH_REQUESTS);
      expect(kept.at(-1)).toEqual(ask(MAX_STORED_PREFETCH_REQUESTS + 9));
      expect(kept.some((r) => r.requestId === "p1")).toBe(false);
    });

    it("drains and resumes; the heartbeat's answer carries draining", async () => {
      await store.register(worker("w1"));
      expect((await store.setDraining("w1", true))?.status).toBe("draining");
      expect((await store.heartbeat("w1", { pools: {}, sandboxes: 0, atMs: 2_000 }))?.status).toBe(
        "draining",
      );
      expect((await store.setDraining("w1", false))?.status).toBe("active");
      expect(await store.setDraining("nope", true)).toBeNull();
    });

    it("a stopped worker leaves the list unless asked for, and cannot be drained back to life", async () => {
      await store.register(worker("w1", { startedAtMs: 1_000 }));
      await store.register(worker("w2", { startedAtMs: 2_000 }));
      await store.markStopped("w1", 5_000);
      expect((await store.list()).map((w) => w.id)).toEqual(["w2"]);
      const all = await store.list({ includeStopped: true });
      expect(all.map((w) => [w.id, w.status, w.stoppedAtMs])).toEqual([
        ["w1", "stopped", 5_000],
        ["w2", "active", null],
      ]);
      expect((await store.setDraining("w1", false))?.status).toBe("stopped");
    });

    it("marks silent active and draining workers lost once; a late heartbeat does not revive them", async () => {
      await store.register(worker("silent", { heartbeatAtMs: 1_000 }));
      await store.register(worker("silent-draining", { heartbeatAtMs: 1_500 }));
      await store.register(worker("fresh", { heartbeatAtMs: 9_000 }));
      await store.register(worker("stopped", { heartbeatAtMs: 1_000 }));
      await store.setDraining("silent-draining", true);
      await store.markStopped("stopped", 2_000);

      const lost = await store.markLost(5_000);
      expect(lost.map((w) => [w.id, w.status]).sort()).toEqual([
        ["silent", "lost"],
        ["silent-draining", "lost"],
      ]);
      expect(lost.find((w) => w.id === "silent")).toEqual({
        ...worker("silent", { heartbeatAtMs: 1_000 }),
        status: "lost",
        unhealthyReason: null,
        stoppedAtMs: null,
        images: null,
        prefetchRequests: [],
      });
      expect(await store.markLost(5_000)).toEqual([]);

      const late = await store.heartbeat("silent", { pools: {}, sandboxes: 3, atMs: 6_000 });
      expect(late).toMatchObject({ status: "lost", heartbeatAtMs: 1_000, sandboxes: 0 });
      expect((await store.setDraining("silent", false))?.status).toBe("lost");
      expect((await store.get("fresh"))?.status).toBe("active");
      expect((await store.get("stopped"))?.status).toBe("stopped");
    });

    it("registering the same id again makes a lost worker active", async () => {
      await store.register(worker("w1", { heartbeatAtMs: 1_000 }));
      await store.markLost(5_000);
      await store.register(worker("w1", { startedAtMs: 6_000, heartbeatAtMs: 6_000, labels: [] }));
      expect(await store.get("w1")).toMatchObject({ status: "active", startedAtMs: 6_000, labels: [] });
    });

    it("hands each lost worker to exactly one of several racing callers", async () => {
      const ids = Array.from({ length: 24 }, (_, index) => `stale-${index}`);
      for (const id of ids) await store.register(worker(id, { heartbeatAtMs: 1_000 }));
      await store.register(worker("fresh", { heartbeatAtMs: 9_000 }));
      const rounds = await Promise.all(
        Array.from({ length: 3 }, () => stores.map((racer) => racer.markLost(5_000))).flat(),
      );
      const claimed = rounds.flat().map((w) => w.id);
      expect(claimed.sort()).toEqual([...ids].sort());
      expect((await store.list()).filter((w) => w.status === "lost")).toHaveLength(ids.length);
      expect((await store.get("fresh"))?.status).toBe("active");
    });
  });
}
