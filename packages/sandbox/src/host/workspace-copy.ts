import {
  type BigIntStats,
  chmodSync,
  constants,
  copyFileSync,
  lchownSync,
  linkSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
} from "node:fs";
import { join } from "node:path";

/** The tree holds an entry a plain copy cannot recreate (FIFO, socket, device). */
export class SpecialEntryError extends Error {
  override readonly name = "SpecialEntryError";
}

/** Entries copied between two yields to the event loop (a few ms of system calls). */
const ENTRIES_PER_SLICE = 64;

/**
 * Copies the tree under `source` into the existing directory `destination` in this process, as
 * `cp -a` does: modes, times, symlinks and the tree's own hard links kept, owners too when
 * running as root; regular files cloned copy-on-write where the file system can
 * (`COPYFILE_FICLONE`, a plain copy elsewhere). No process is spawned and no call waits for a
 * thread: the system calls run on this thread in slices of {@link ENTRIES_PER_SLICE} entries,
 * with a yield to the event loop between slices, so a small tree (a group member's workspace) is
 * copied in one burst and a large one never blocks the loop for long. On a loaded host this is
 * what matters: a fork+exec of `cp`, or a hop to libuv's threads per call, each waits for a CPU.
 * Rejects with `SpecialEntryError` on a FIFO, socket or device node (nothing is skipped silently).
 */
export async function copyTree(source: string, destination: string): Promise<void> {
  const isRoot = process.getuid?.() === 0;
  /** Hard-linked inodes: the path of their first copy. */
  const linked = new Map<string, string>();
  let sliceLeft = ENTRIES_PER_SLICE;
  const keepAttributes = (path: string, stat: BigIntStats, isLink: boolean) => {
    if (isRoot) lchownSync(path, Number(stat.uid), Number(stat.gid));
    if (!isLink) chmodSync(path, Number(stat.mode) & 0o7777);
    // Seconds as a double: sub-microsecond digits are lost (cp keeps nanoseconds); git compares
    // ctime and inode too, which no copy keeps, so its first status re-reads files either way.
    lutimesSync(path, Number(stat.atimeNs) / 1e9, Number(stat.mtimeNs) / 1e9);
  };
  const copyDir = async (from: string, to: string): Promise<void> => {
    for (const name of readdirSync(from)) {
      if (--sliceLeft <= 0) {
        sliceLeft = ENTRIES_PER_SLICE;
        await new Promise((resolve) => setImmediate(resolve));
      }
      const [src, dst] = [join(from, name), join(to, name)];
      const stat = lstatSync(src, { bigint: true });
      if (stat.isDirectory()) {
        mkdirSync(dst, { mode: 0o700 });
        await copyDir(src, dst);
        keepAttributes(dst, stat, false);
      } else if (stat.isSymbolicLink()) {
        symlinkSync(readlinkSync(src), dst);
        keepAttributes(dst, stat, true);
      } else if (stat.isFile()) {
        const inode = `${stat.dev}:${stat.ino}`;
        const first = stat.nlink > 1n ? linked.get(inode) : undefined;
        if (first) {
          linkSync(first, dst);
          continue;
        }
        copyFileSync(src, dst, constants.COPYFILE_FICLONE);
        keepAttributes(dst, stat, false);
        if (stat.nlink > 1n) linked.set(inode, dst);
      } else {
        throw new SpecialEntryError(`${src} is neither a file, a directory nor a symlink`);
      }
    }
  };
  await copyDir(source, destination);
  keepAttributes(destination, lstatSync(source, { bigint: true }), false);
}
