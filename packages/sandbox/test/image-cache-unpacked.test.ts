import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageCache } from "../src/index";
import { buildTestImages, type TestImages } from "./support/test-images";

describe("image cache: which images it holds unpacked", () => {
  let images: TestImages;
  const dirs: string[] = [];

  beforeAll(async () => {
    images = await buildTestImages();
  }, 600_000);
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("lists each complete entry with the references that name it, to every cache object on the directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "raas-image-cache-unpacked-"));
    dirs.push(dir);
    const cache = new ImageCache({ dir });
    expect(await cache.listUnpacked()).toEqual([]);

    const lease = await cache.acquire(images.ociArchive);
    // The OCI layout is the same image (one key): acquiring it adds a reference, not an entry.
    const second = await cache.acquire(images.ociLayout);
    await Promise.all([lease.release(), second.release()]);

    const listed = await cache.listUnpacked();
    expect(listed).toHaveLength(1);
    expect(listed[0]?.key).toBe(lease.key);
    expect(new Set(listed[0]?.references)).toEqual(new Set([images.ociArchive, images.ociLayout]));
    expect(listed[0]?.sizeBytes).toBeGreaterThan(0);

    // Another process's cache object knows the reference it was unpacked from.
    const other = await new ImageCache({ dir }).listUnpacked();
    expect(other).toEqual([
      { key: lease.key, references: [images.ociArchive], sizeBytes: listed[0]?.sizeBytes },
    ]);
  });
});
