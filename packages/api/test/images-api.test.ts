// `images.prefetch` and `images.prefetchStatus` over real HTTP (REST and tRPC) on the engine's
// in-memory worker store, with a worker that follows requests through the engine's
// `ImagePrefetcher` as apps/worker does (its cache is a stand-in here: the real unpack is
// tested in packages/sandbox and apps/worker).
import { ImagePrefetcher, MemoryWorkerStore } from "@raas/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, startTestServer, type TestServer, TOKENS } from "./helpers/test-server";

describe("images.* on the in-memory registry", () => {
  let server: TestServer;
  const store = new MemoryWorkerStore();
  const api = (path: string) => `${server.url}/api/v1/images${path}`;
  const unpacked = new Set<string>();
  const prefetcher = new ImagePrefetcher({
    acquire: async (reference) => {
      if (reference.endsWith(".broken")) throw new Error(`could not unpack image ${reference}: not an image`);
      const isHit = unpacked.has(reference);
      unpacked.add(reference);
      return { isHit, ...(isHit ? {} : { unpackMs: 1_234 }), release: () => Promise.resolve() };
    },
    report: async () => ({
      capBytes: 1_000_000,
      usedBytes: unpacked.size * 1_000,
      hits: 0,
      misses: unpacked.size,
      evictions: 0,
      images: [...unpacked].map((reference) => ({
        key: `oci-${reference.length}`,
        references: [reference],
        sizeBytes: 1_000,
        unpackMs: 1_234,
        hits: 0,
        misses: 1,
      })),
    }),
  });
  /** One heartbeat of worker `w1`, as `WorkerHeartbeat` makes it: report, then follow the record. */
  const beat = async () => {
    const record = await store.heartbeat("w1", {
      pools: {},
      sandboxes: 0,
      images: await prefetcher.report(),
      atMs: Date.now(),
    });
    prefetcher.follow(record?.prefetchRequests ?? []);
  };

  beforeAll(async () => {
    server = await startTestServer({ workers: store });
    const now = Date.now();
    for (const id of ["w1", "w2"]) {
      await store.register({
        id,
        hostname: id,
        pid: 1,
        labels: [],
        pools: {},
        sandboxes: 0,
        startedAtMs: now,
        heartbeatAtMs: now,
      });
    }
    await store.markStopped("w2", now);
  });
  afterAll(() => server.close());

  it("prefetches on a worker: pending until it beats, then done with the unpack time; the worker lists the image", async () => {
    const asked = await http(api("/prefetch"), {
      body: { images: ["/images/a.tar", "/images/a.tar", "/images/b.broken"], workers: ["w1"] },
      token: TOKENS.admin,
    });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ images: ["/images/a.tar", "/images/b.broken"], workers: ["w1"] });
    const status = () => http(api(`/prefetch/${asked.body.requestId}`), { token: TOKENS.viewer });
    const pending = await status();
    expect(pending.body).toMatchObject({ isFinished: false });
    expect(
      pending.body.entries.map((entry: { progress: { status: string } }) => entry.progress.status),
    ).toEqual(["pending", "pending"]);
    await beat(); // Reads the request back and starts unpacking.
    await prefetcher.idle();
    await beat(); // Reports the outcome.
    const finished = await status();
    expect(finished.body.isFinished).toBe(true);
    expect(finished.body.entries.map((entry: { progress: unknown }) => entry.progress)).toEqual([
      expect.objectContaining({
        reference: "/images/a.tar",
        status: "done",
        wasCached: false,
        unpackMs: 1_234,
        error: null,
      }),
      expect.objectContaining({
        reference: "/images/b.broken",
        status: "failed",
        error: expect.stringContaining("not an image"),
      }),
    ]);
    const workers = await http(`${server.url}/api/v1/workers`, { token: TOKENS.viewer });
    expect(workers.body.workers[0].images).toMatchObject({
      usedBytes: 1_000,
      images: [{ references: ["/images/a.tar"], unpackMs: 1_234 }],
    });
    expect(workers.body.workers[0]).not.toHaveProperty("prefetchRequests");
  });

  it("defaults to every active worker, over tRPC too", async () => {
    const asked = await http(`${server.url}/trpc/images.prefetch`, {
      body: { images: ["/images/a.tar"] },
      token: TOKENS.admin,
    });
    expect(asked.status).toBe(200);
    expect(asked.body.result.data).toMatchObject({ workers: ["w1"] });
  });

  it.each([
    [{ images: [] }, 400, "at least one image"],
    [{ images: ["relative/path.sif"] }, 400, "absolute path on the workers"],
    [{ images: ["/a.sif"], workers: [] }, 400, "at least one worker"],
    [{ images: ["/a.sif"], extra: 1 }, 400, "extra"],
    [{ images: ["/a.sif"], workers: ["nope"] }, 404, 'no worker with id "nope"'],
    [{ images: ["/a.sif"], workers: ["w2"] }, 409, '"w2" is stopped'],
  ])("refuses %j with %i and a sentence", async (body, status, message) => {
    const refused = await http(api("/prefetch"), { body, token: TOKENS.admin });
    expect(refused.status).toBe(status);
    expect(refused.body.error.message).toContain(message);
  });

  it("is for admins only; an unknown prefetch is a 404", async () => {
    const asViewer = await http(api("/prefetch"), { body: { images: ["/a.sif"] }, token: TOKENS.viewer });
    expect(asViewer.status).toBe(403);
    const unknown = await http(api("/prefetch/nope"), { token: TOKENS.viewer });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('no image prefetch with id "nope"');
  });
});
