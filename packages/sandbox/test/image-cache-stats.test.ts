import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageCache } from "../src/index";
import { IMAGE_PACKAGES, PREPARE_TIMEOUT_MS } from "./support/sandbox-targets";
import { buildTestImages, type TestImages } from "./support/test-images";

describe("image cache report", () => {
  let images: TestImages;
  const dir = mkdtempSync(join(tmpdir(), "raas-image-cache-stats-test-"));

  beforeAll(async () => {
    images = await buildTestImages({ packages: IMAGE_PACKAGES });
  }, PREPARE_TIMEOUT_MS);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("counts hits, misses and unpack times per image, bytes used against the cap, and the images held", async () => {
    const cache = new ImageCache({ dir, capBytes: 50 * 1024 ** 3 });
    const empty = await cache.report();
    expect(empty).toEqual({
      capBytes: 50 * 1024 ** 3,
      usedBytes: 0,
      hits: 0,
      misses: 0,
      evictions: 0,
      images: [],
    });

    const leases = [await cache.acquire(images.sif), await cache.acquire(images.sif)];
    leases.push(await cache.acquire(images.ociArchive));
    const bogus = join(dir, "not-an-image.txt");
    writeFileSync(bogus, "hello");
    await expect(cache.acquire(bogus)).rejects.toThrow();
    await cache.acquire(images.rootfsDir); // A directory used in place is not the cache's business.
    await Promise.all(leases.map((lease) => lease.release()));

    const report = await cache.report();
    expect(report).toMatchObject({ capBytes: 50 * 1024 ** 3, hits: 1, misses: 3, evictions: 0 });
    const byReference = (reference: string) =>
      report.images.find((image) => image.references.includes(reference));
    expect(byReference(images.sif)).toMatchObject({
      key: expect.stringMatching(/^sif-/),
      hits: 1,
      misses: 1,
      unpackMs: expect.any(Number),
    });
    expect(byReference(images.ociArchive)).toMatchObject({
      key: expect.stringMatching(/^oci-/),
      hits: 0,
      misses: 1,
    });
    expect(report.images).toHaveLength(2);
    for (const image of report.images) expect(image.sizeBytes).toBeGreaterThan(50 * 1024 ** 2);
    expect(report.usedBytes).toBe(report.images.reduce((sum, image) => sum + image.sizeBytes, 0));

    // Another process sharing the directory sees the same images, with the unpack times their
    // markers recorded, and counts only its own acquires.
    const other = await new ImageCache({ dir }).report();
    expect(other).toMatchObject({ hits: 0, misses: 0, usedBytes: report.usedBytes });
    expect(other.images.map(({ key, unpackMs }) => ({ key, unpackMs }))).toEqual(
      report.images.map(({ key, unpackMs }) => ({ key, unpackMs })),
    );
  }, 300_000);
});
