import { chmod, lstat, mkdir, readdir } from "node:fs/promises";
import path from "node:path";

/** Group and other permission bits: a data directory keeps none of them. */
const GROUP_AND_OTHER = 0o077;

/**
 * Creates `dir` (and missing parents) readable by its owner only, and tightens it to 0700 when it
 * already exists with a wider mode. The database's files hold every token id and reward.
 */
export async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}

/**
 * Removes group and other permissions from everything under `dir` (PGlite writes its files mode
 * 0666 whatever the umask). Symbolic links are left alone. Returns how many entries changed.
 */
export async function restrictTreeToOwner(dir: string): Promise<number> {
  let changed = 0;
  const visit = async (entry: string): Promise<void> => {
    const stats = await lstat(entry);
    if (stats.isSymbolicLink()) return;
    if ((stats.mode & GROUP_AND_OTHER) !== 0) {
      await chmod(entry, stats.mode & 0o700);
      changed += 1;
    }
    if (stats.isDirectory()) {
      for (const name of await readdir(entry)) await visit(path.join(entry, name));
    }
  };
  await visit(dir);
  return changed;
}
