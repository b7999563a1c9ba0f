import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildTestImages, type TestImages } from "@raas/sandbox/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useCluster } from "./support/cluster";
import { until } from "./support/deployment";

interface PrefetchStatus {
  isFinished: boolean;
  entries: Array<{
    workerId: string;
    progress: {
      reference: string;
      status: string;
      wasCached: boolean | null;
      unpackMs: number | null;
      error: string | null;
    };
  }>;
}
interface ListedWorker {
  id: string;
  images: {
    usedBytes: number;
    capBytes: number;
    hits: number;
    misses: number;
    images: Array<{ references: string[]; sizeBytes: number; unpackMs: number | null }>;
  } | null;
}

// images.prefetch against two real worker processes with separate cache directories (as separate
// hosts would have): the one asked unpacks the image, reports it with its heartbeats and shows
// it in workers.list; the other holds nothing. Asked again, it finds the image cached.
describe("prefetching images on worker processes", () => {
  const cluster = useCluster({ startServer: false });
  let images: TestImages;
  const cacheDirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), "raas-prefetch-cache-")));

  beforeAll(async () => {
    images = await buildTestImages();
  }, 600_000);
  afterAll(() => {
    for (const dir of cacheDirs) rmSync(dir, { recursive: true, force: true });
  });

  it("unpacks on the worker asked, reports progress and the held image, and is a hit the second time", async () => {
    const { deployment, workers } = cluster;
    const server = await deployment.startServer();
    const [asked, other] = await Promise.all(
      cacheDirs.map(
        async (dir) =>
          (
            await workers.start(1, "init=1,run=1,eval=1", {
              RAAS_WORKER_HEARTBEAT_MS: "500",
              RAAS_IMAGE_CACHE_DIR: dir,
            })
          )[0],
      ),
    );
    if (!asked || !other) throw new Error("two workers expected");

    const prefetch = (body: unknown) =>
      server.rest<{ requestId: string; workers: string[] }>("/api/v1/images/prefetch", body);
    const finished = async (requestId: string) => {
      let status: PrefetchStatus | undefined;
      await until(
        async () => {
          status = await server.rest<PrefetchStatus>(`/api/v1/images/prefetch/${requestId}`);
          return status.isFinished;
        },
        "the prefetch to finish",
        120_000,
      );
      return status as PrefetchStatus;
    };

    const first = await prefetch({ images: [images.sif, "/nonexistent/image.sif"], workers: [asked.id] });
    expect(first.workers).toEqual([asked.id]);
    const firstStatus = await finished(first.requestId);
    expect(
      firstStatus.entries.map((entry) => [entry.workerId, entry.progress.reference, entry.progress.status]),
    ).toEqual([
      [asked.id, images.sif, "done"],
      [asked.id, "/nonexistent/image.sif", "failed"],
    ]);
    expect(firstStatus.entries[0]?.progress).toMatchObject({
      wasCached: false,
      unpackMs: expect.any(Number),
    });
    expect(firstStatus.entries[1]?.progress.error).toMatch(/does not exist/);

    let listed: ListedWorker[] = [];
    await until(async () => {
      ({ workers: listed } = await server.rest<{ workers: ListedWorker[] }>("/api/v1/workers"));
      return (listed.find((worker) => worker.id === asked.id)?.images?.images.length ?? 0) > 0;
    }, "the worker to report the image it holds");
    const held = listed.find((worker) => worker.id === asked.id)?.images;
    expect(held?.images).toEqual([
      expect.objectContaining({ references: [images.sif], unpackMs: expect.any(Number) }),
    ]);
    expect(held?.usedBytes).toBe(held?.images[0]?.sizeBytes);
    expect(held?.misses).toBe(2);
    expect(listed.find((worker) => worker.id === other.id)?.images).toMatchObject({
      usedBytes: 0,
      images: [],
    });

    const second = await prefetch({ images: [images.sif], workers: [asked.id] });
    const secondStatus = await finished(second.requestId);
    expect(secondStatus.entries[0]?.progress).toMatchObject({
      status: "done",
      wasCached: true,
      unpackMs: null,
    });
  }, 600_000);
});
