import { chmod, lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { WorkspaceUsage } from "./watchdog-decision";

/** Entries lstat'ed at once: enough to keep the thread pool busy, few enough to stay cheap. */
const BATCH = 64;

/**
 * Disk use of a host directory, like `du`: allocated blocks (a sparse file counts what it really
 * occupies), hard links once, symlinks not followed, no descent into other file systems. Stops
 * after `maxEntries` entries (then `isComplete` is false and `bytes` a lower bound), so a
 * workspace of millions of tiny files costs a bounded walk. Asynchronous: never blocks the host's
 * event loop for long. A directory the sandbox made unreadable to its owner is given back owner
 * read/search permission (the host owns the workspace) so nothing hides from the count.
 */
export async function measureWorkspace(root: string, maxEntries: number): Promise<WorkspaceUsage> {
  const rootStat = await lstat(root);
  const seenInodes = new Set<number>();
  const pending = [root];
  let bytes = 0;
  let entries = 0;
  while (pending.length > 0) {
    const dir = pending.pop()!;
    const names = await readDirectory(dir);
    for (let start = 0; start < names.length; start += BATCH) {
      if (entries >= maxEntries) return { bytes, entries, isComplete: false };
      const batch = names.slice(start, start + Math.min(BATCH, maxEntries - entries));
      const stats = await Promise.all(batch.map((name) => lstat(join(dir, name)).catch(() => undefined)));
      for (const [index, stat] of stats.entries()) {
        entries += 1;
        if (!stat || stat.dev !== rootStat.dev) continue;
        if (stat.nlink > 1 && !stat.isDirectory()) {
          if (seenInodes.has(stat.ino)) continue;
          seenInodes.add(stat.ino);
        }
        bytes += stat.blocks * 512;
        if (stat.isDirectory()) pending.push(join(dir, batch[index]!));
      }
    }
  }
  return { bytes, entries, isComplete: true };
}

async function readDirectory(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EACCES") return [];
    try {
      const { mode } = await lstat(dir);
      await chmod(dir, (mode & 0o7777) | 0o500);
      return await readdir(dir);
    } catch {
      return [];
    }
  }
}
