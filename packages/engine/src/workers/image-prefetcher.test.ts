import { describe, expect, it } from "vitest";
import type { WorkerRecord } from "../ports/worker-store.port";
import { imagePrefetchStatus } from "./image-prefetch-status";
import { ImagePrefetcher } from "./image-prefetcher";

const clock = { now: () => 5_000, setTimer: () => () => {} };

function prefetcher(unpacked: Set<string>, acquired: string[]) {
  let progressCalls = 0;
  const images = new ImagePrefetcher({
    acquire: async (reference) => {
      acquired.push(reference);
      if (reference.endsWith(".broken")) throw new Error("not an image");
      const isHit = unpacked.has(reference);
      unpacked.add(reference);
      return { isHit, ...(isHit ? {} : { unpackMs: 40 }), release: async () => {} };
    },
    report: async () => ({ capBytes: 10, usedBytes: 0, hits: 0, misses: 0, evictions: 0, images: [] }),
    onProgress: () => {
      progressCalls += 1;
    },
    clock,
  });
  return { images, progressCalls: () => progressCalls };
}

describe("ImagePrefetcher", () => {
  it("unpacks each image of each new request once, reports outcomes, and ignores requests it has seen", async () => {
    const acquired: string[] = [];
    const { images, progressCalls } = prefetcher(new Set(["/b.sif"]), acquired);
    const requests = [
      { requestId: "r1", references: ["/a.tar", "/a.tar", "/b.sif"], requestedAtMs: 1 },
      { requestId: "r2", references: ["/c.broken"], requestedAtMs: 2 },
    ];
    images.follow(requests);
    images.follow(requests); // The next beat reads the same requests back.
    await images.idle();
    expect(acquired).toEqual(["/a.tar", "/b.sif", "/c.broken"]);
    expect(progressCalls()).toBe(6); // Started and finished, for each.
    const report = await images.report();
    expect(
      report.prefetches.map(({ requestId, reference, status, wasCached, unpackMs, error }) => ({
        requestId,
        reference,
        status,
        wasCached,
        unpackMs,
        error,
      })),
    ).toEqual([
      {
        requestId: "r2",
        reference: "/c.broken",
        status: "failed",
        wasCached: null,
        unpackMs: null,
        error: "not an image",
      },
      { requestId: "r1", reference: "/b.sif", status: "done", wasCached: true, unpackMs: null, error: null },
      { requestId: "r1", reference: "/a.tar", status: "done", wasCached: false, unpackMs: 40, error: null },
    ]);
  });

  it("status: pending until a worker reports, then what it reported", async () => {
    const { images } = prefetcher(new Set(), []);
    const request = { requestId: "r1", references: ["/a.tar"], requestedAtMs: 7 };
    const record = (): WorkerRecord => ({
      id: "w1",
      hostname: "h",
      pid: 1,
      labels: [],
      pools: {},
      sandboxes: 0,
      backends: [],
      status: "active",
      unhealthyReason: null,
      startedAtMs: 0,
      heartbeatAtMs: 0,
      stoppedAtMs: null,
      images: null,
      prefetchRequests: [request],
    });
    expect(imagePrefetchStatus([record()], "r1")).toEqual([
      {
        workerId: "w1",
        workerStatus: "active",
        progress: {
          requestId: "r1",
          reference: "/a.tar",
          status: "pending",
          wasCached: null,
          unpackMs: null,
          error: null,
          updatedAtMs: 7,
        },
      },
    ]);
    images.follow([request]);
    await images.idle();
    const reported = { ...record(), images: await images.report() };
    expect(imagePrefetchStatus([reported], "r1")[0]?.progress).toMatchObject({
      status: "done",
      unpackMs: 40,
    });
    expect(imagePrefetchStatus([reported], "other")).toEqual([]);
  });
});
