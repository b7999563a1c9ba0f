import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ImageCache } from "../src/index";
import { createTestRuntime } from "./support/sandbox-fixture";
import { buildTestImages, type TestImages } from "./support/test-images";

const childScript = fileURLToPath(new URL("./support/image-acquire-child.ts", import.meta.url));

async function waitUntil(predicate: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return predicate();
}

/** Entries of one kind (`sif-`, `oci-`) in a cache directory. */
const entriesOf = (cacheDir: string, prefix: string) =>
  existsSync(join(cacheDir, "entries"))
    ? readdirSync(join(cacheDir, "entries")).filter((name) => name.startsWith(prefix))
    : [];

describe("image cache", () => {
  let images: TestImages;
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "raas-image-cache-test-"));
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    images = await buildTestImages();
  }, 600_000);
  afterEach(() => {
    for (const child of children.splice(0)) child.kill("SIGKILL");
  });
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("unpacks an image once when many sandboxes and another cache object use it first at the same time", async () => {
    const dir = freshDir();
    const cache = new ImageCache({ dir });
    const otherProcessCache = new ImageCache({ dir });
    const fixture = createTestRuntime({ imageCache: cache });
    try {
      const [sandboxes, leases] = await Promise.all([
        Promise.all([1, 2, 3].map(() => fixture.runtime.create({ image: images.sif }))),
        Promise.all([1, 2].map(() => otherProcessCache.acquire(images.sif))),
      ]);
      const outputs = await Promise.all(
        sandboxes.map((sandbox) => sandbox.exec(["python3", "-c", "import sys; print(sys.version_info[1])"])),
      );
      expect(outputs.map((output) => output.stdout)).toEqual(["13\n", "13\n", "13\n"]);
      expect(cache.stats.unpacks + otherProcessCache.stats.unpacks).toBe(1);
      expect(cache.stats.hits + otherProcessCache.stats.hits).toBe(4);
      expect(new Set(leases.map((lease) => lease.rootfs)).size).toBe(1);
      expect(entriesOf(dir, "sif-")).toHaveLength(1);
      await Promise.all(leases.map((lease) => lease.release()));
    } finally {
      await fixture.dispose();
    }
  });

  it("never uses what a process killed with SIGKILL mid-unpack left; the next use unpacks it whole", async () => {
    const dir = freshDir();
    const child = spawn(process.execPath, ["--import", "tsx", childScript, dir, images.sif], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    const tmpDir = join(dir, "tmp");
    // Killed once the unpack is under way: its root filesystem started, its entry not complete.
    const isUnderWay = () =>
      existsSync(tmpDir) &&
      readdirSync(tmpDir).some((name) => existsSync(join(tmpDir, name, "rootfs", "usr")));
    expect(await waitUntil(isUnderWay, 60_000)).toBe(true);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(entriesOf(dir, "sif-")).toEqual([]);
    expect(readdirSync(tmpDir).length).toBeGreaterThan(0);

    const cache = new ImageCache({ dir });
    const lease = await cache.acquire(images.sif);
    expect(lease.isHit).toBe(false);
    expect(cache.stats.unpacks).toBe(1);
    expect(readdirSync(tmpDir)).toEqual([]);
    const fixture = createTestRuntime({ imageCache: cache });
    try {
      const sandbox = await fixture.runtime.create({ image: images.sif });
      // Every file made it: python's whole standard library imports.
      const result = await sandbox.exec([
        "python3",
        "-c",
        "import json, sqlite3, email.mime.text, unittest; print('ok')",
      ]);
      expect(result).toMatchObject({ exitCode: 0, stdout: "ok\n" });
    } finally {
      await fixture.dispose();
      await lease.release();
    }
  });

  it("rebuilds an entry whose completion marker is missing instead of using it", async () => {
    const dir = freshDir();
    const first = await new ImageCache({ dir }).acquire(images.sif);
    await first.release();
    const entry = join(dir, "entries", first.key!);
    renameSync(join(entry, "entry.json"), join(dir, "stray-marker.json"));
    const cache = new ImageCache({ dir });
    const again = await cache.acquire(images.sif);
    expect(again).toMatchObject({ key: first.key, isHit: false });
    expect(cache.stats.unpacks).toBe(1);
    expect(existsSync(join(entry, "entry.json"))).toBe(true);
    expect(existsSync(join(again.rootfs, "usr/bin/python3"))).toBe(true);
    await again.release();
  });

  it("tells a file's format and content again when it changes under the same path", async () => {
    const dir = freshDir();
    const cache = new ImageCache({ dir });
    const path = join(dir, "image");
    copyFileSync(images.sif, path);
    const asSif = await cache.acquire(path);
    await asSif.release();
    const again = await cache.acquire(path);
    await again.release();
    expect(again).toMatchObject({ key: asSif.key, isHit: true });
    // Rewritten in place (same inode): now an OCI archive, which gets its own entry.
    copyFileSync(images.ociArchive, path);
    const asOci = await cache.acquire(path);
    await asOci.release();
    expect(asSif.key).toMatch(/^sif-/);
    expect(asOci).toMatchObject({ key: expect.stringMatching(/^oci-/), isHit: false });
    expect(existsSync(join(asOci.rootfs, "usr/bin/python3"))).toBe(true);
    expect(cache.stats.unpacks).toBe(2);
  }, 120_000);

  it("evicts the least recently used unreferenced image over its cap, never one in use", async () => {
    const dir = freshDir();
    // One image is ~160 MB unpacked: the cap holds one of the two, not both.
    const capBytes = 250 * 1024 ** 2;
    const cache = new ImageCache({ dir, capBytes });
    const sif = await cache.acquire(images.sif);
    await sif.release();
    const oci = await cache.acquire(images.ociArchive);
    expect(entriesOf(dir, "sif-")).toEqual([]);
    expect(entriesOf(dir, "oci-")).toEqual([oci.key]);
    expect(cache.stats.evictions).toBe(1);

    await oci.release();

    // Another process's acquire evicts the now unreferenced OCI entry to make room; its own lease
    // then keeps the SIF entry even while the cache is over its cap.
    const holder = spawn(
      process.execPath,
      ["--import", "tsx", childScript, dir, images.sif, String(capBytes)],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    children.push(holder);
    const held = await new Promise<{ isHit: boolean }>((resolve, reject) => {
      holder.stdout!.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
      holder.once("exit", (code) => reject(new Error(`holder exited ${code}`)));
    });
    expect(held.isHit).toBe(false);
    expect(entriesOf(dir, "sif-")).toHaveLength(1);
    expect(entriesOf(dir, "oci-")).toEqual([]);
    const ociAgain = await cache.acquire(images.ociArchive);
    expect(ociAgain.isHit).toBe(false);
    expect(entriesOf(dir, "sif-")).toHaveLength(1);
    expect(entriesOf(dir, "oci-")).toHaveLength(1);
    await ociAgain.release();

    // Once its process is gone its lease no longer counts.
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    const ociHit = await cache.acquire(images.ociArchive);
    expect(ociHit.isHit).toBe(true);
    await ociHit.release();
    expect(entriesOf(dir, "sif-")).toEqual([]);
    expect(entriesOf(dir, "oci-")).toHaveLength(1);
  }, 120_000);
});
