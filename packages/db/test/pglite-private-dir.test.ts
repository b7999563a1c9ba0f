import { chmod, lstat, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/index";

/** Paths under `dir` (itself included) whose mode grants anything to group or others. */
async function openToOthers(dir: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (entry: string) => {
    const stats = await lstat(entry);
    if (stats.isSymbolicLink()) return;
    if ((stats.mode & 0o077) !== 0)
      found.push(`${path.relative(dir, entry)} ${(stats.mode & 0o777).toString(8)}`);
    if (stats.isDirectory()) for (const name of await readdir(entry)) await visit(path.join(entry, name));
  };
  await visit(dir);
  return found;
}

async function widenTree(dir: string): Promise<void> {
  const stats = await lstat(dir);
  await chmod(dir, stats.isDirectory() ? 0o777 : 0o666);
  if (stats.isDirectory()) for (const name of await readdir(dir)) await widenTree(path.join(dir, name));
}

describe("PGlite data directory permissions", () => {
  let root = "";
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "raas-db-perms-"));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("creates the directory 0700 with owner-only files, and tightens a wide one at the next open", async () => {
    const dataDir = path.join(root, "nested", "pglite");
    const first = await openDatabase({ dataDir });
    await first.close();
    expect((await lstat(dataDir)).mode & 0o777).toBe(0o700);
    expect(await openToOthers(dataDir)).toEqual([]);

    // An installation from before: everything world-readable and writable.
    await widenTree(dataDir);
    expect((await openToOthers(dataDir)).length).toBeGreaterThan(100);
    const again = await openDatabase({ dataDir });
    try {
      expect(await openToOthers(dataDir)).toEqual([]);
      const rows = await again.prisma.$queryRawUnsafe<{ one: number }[]>("SELECT 1 AS one");
      expect(rows[0]?.one).toBe(1);
    } finally {
      await again.close();
    }
  });
});
