// Image-aware placement through the composition root: an engine composed with the images its
// real image cache holds (`composeHeldImages`) starts a job of a held image before an older job
// of an image it does not hold, on the embedded memory queue and on the distributed Redis queue;
// and an image being unpacked counts as held from the start.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSleepHandler, defineHandler } from "@raas/engine";
import { ImageCache } from "@raas/sandbox";
import { buildTestImages, type TestImages } from "@raas/sandbox/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../../db/test/support/postgres-test-database";
import { deleteKeys, REDIS_URL } from "../../queue/test/support/redis-test-env";
import { composeEngine } from "../src/compose-engine";
import { composeHeldImages } from "../src/compose-image-cache";
import { createRaasLogger } from "../src/logger";

describe("composeHeldImages with a real image cache", () => {
  const cacheDir = mkdtempSync(join(tmpdir(), "raas-held-images-"));
  const cache = new ImageCache({ dir: cacheDir });
  const held = composeHeldImages(cache);
  let images: TestImages;

  beforeAll(async () => {
    images = await buildTestImages();
  }, 600_000);
  afterAll(async () => {
    held.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("lists an image while it unpacks and once unpacked, by the reference jobs name it with", async () => {
    expect(held.list()).toEqual([]);
    const acquiring = cache.acquire(images.sif);
    expect(held.list()).toEqual([images.sif]);
    const lease = await acquiring;
    await lease.release();
    expect(lease.isHit).toBe(false);
    await held.refresh();
    expect(cache.acquiring()).toEqual([]);
    expect(held.list()).toEqual([images.sif]);
  }, 300_000);

  it.each([
    { name: "memory queue", distributed: false },
    { name: "Redis queue and PostgreSQL store (distributed mode)", distributed: true },
  ])(
    "starts the job of the held image before an older job of another image ($name)",
    async ({ distributed }) => {
      // The SIF (image A) is held unpacked; the OCI archive (image B) is not.
      await (await cache.acquire(images.sif)).release();
      const initOrder: string[] = [];
      const sleep = createSleepHandler({
        onStage: (event) => {
          if (event.stage === "init" && event.phase === "start") initOrder.push(event.jobId);
        },
      });
      const pool = (concurrency: number) => ({ concurrency, timeoutMs: 30_000 });
      const schema = distributed ? freshSchemaName() : null;
      const prefix = `raas-held-${randomUUID().slice(0, 8)}`;
      const composed = await composeEngine({
        ...(schema
          ? {
              store: { kind: "db", databaseUrl: withSchema(schema), dataDir: "" },
              queue: { kind: "redis", url: REDIS_URL, prefix },
            }
          : { store: { kind: "memory" } }),
        // The diagnostic `sleep` kind is registered already: the same handler, with an image per job.
        handlers: [
          defineHandler({
            ...sleep,
            kind: "sleep-on-image",
            imageOf: (payload) => (payload.initMs === 1 ? images.sif : images.ociArchive),
          }),
        ],
        pools: { init: pool(0), run: pool(2), eval: pool(2) },
        heldImages: () => held.list(),
        logger: createRaasLogger("silent"),
      });
      const { engine } = composed;
      try {
        await engine.start();
        expect(held.list()).toContain(images.sif);
        expect(held.list()).not.toContain(images.ociArchive);
        // INIT closed while both are queued, the one of image B first.
        const submit = (initMs: number) =>
          engine.submitJob({ kind: "sleep-on-image", payload: { initMs, runMs: 1, evalMs: 1 } });
        const older = await submit(2);
        const newer = await submit(1);
        engine.setConcurrency("init", 1);
        await until(() => initOrder.length === 2, "both jobs to start INIT");
        expect(initOrder).toEqual([newer.job.id, older.job.id]);
      } finally {
        await engine.stop({ graceMs: 0 });
        await composed.close();
        if (schema) await Promise.all([dropSchema(schema), deleteKeys(REDIS_URL, prefix)]);
      }
    },
    120_000,
  );
});

function withSchema(schema: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set("schema", schema);
  return url.toString();
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
