import { type BigIntStats, constants } from "node:fs";
import {
  chmod,
  copyFile,
  lchown,
  link,
  lstat,
  lutimes,
  mkdir,
  readdir,
  readlink,
  symlink,
} from "node:fs/promises";
import { join } from "node:path";

/** The tree holds an entry a plain copy cannot recreate (FIFO, socket, device). */
export class SpecialEntryError extends Error {
  override readonly name = "SpecialEntryError";
}

/** File operations in flight at once: enough to keep libuv's threads busy, few enough for fds. */
const CONCURRENT_OPS = 16;

/**
 * Copies the tree under `source` into the existing directory `destination` in this process, as
 * `cp -a` does: modes, times, symlinks and the tree's own hard links kept, owners too when
 * running as root; regular files cloned copy-on-write where the file system can
 * (`COPYFILE_FICLONE`, a plain copy elsewhere). No process is spawned, so a small tree (a group
 * member's workspace) costs a few hundred system calls instead of a fork and an exec. Rejects
 * with `SpecialEntryError` on a FIFO, socket or device node (nothing has been skipped silently).
 */
export async function copyTree(source: string, destination: string): Promise<void> {
  const withSlot = limiter(CONCURRENT_OPS);
  const isRoot = process.getuid?.() === 0;
  /** Hard-linked inodes: the first copy's path, once copied. */
  const linked = new Map<string, Promise<string>>();
  const keepAttributes = async (path: string, stat: BigIntStats, isLink: boolean) => {
    if (isRoot) await lchown(path, Number(stat.uid), Number(stat.gid));
    if (!isLink) await chmod(path, Number(stat.mode) & 0o7777);
    // Seconds as a double: sub-microsecond digits are lost (cp keeps nanoseconds); git compares
    // ctime and inode too, which no copy keeps, so its first status re-reads files either way.
    await lutimes(path, Number(stat.atimeNs) / 1e9, Number(stat.mtimeNs) / 1e9);
  };
  const copyDir = async (from: string, to: string): Promise<void> => {
    const names = await withSlot(() => readdir(from));
    await Promise.all(
      names.map(async (name) => {
        const [src, dst] = [join(from, name), join(to, name)];
        const stat = await withSlot(() => lstat(src, { bigint: true }));
        if (stat.isDirectory()) {
          await withSlot(() => mkdir(dst, { mode: 0o700 }));
          await copyDir(src, dst);
          await withSlot(() => keepAttributes(dst, stat, false));
        } else if (stat.isSymbolicLink()) {
          await withSlot(async () => {
            await symlink(await readlink(src), dst);
            await keepAttributes(dst, stat, true);
          });
        } else if (stat.isFile()) {
          const inode = `${stat.dev}:${stat.ino}`;
          const first = stat.nlink > 1 ? linked.get(inode) : undefined;
          if (first) {
            const copied = await first;
            await withSlot(() => link(copied, dst));
            return;
          }
          const copying = withSlot(async () => {
            await copyFile(src, dst, constants.COPYFILE_FICLONE);
            await keepAttributes(dst, stat, false);
            return dst;
          });
          if (stat.nlink > 1) linked.set(inode, copying);
          await copying;
        } else {
          throw new SpecialEntryError(`${src} is neither a file, a directory nor a symlink`);
        }
      }),
    );
  };
  await copyDir(source, destination);
  await keepAttributes(destination, await lstat(source, { bigint: true }), false);
}

/** Runs at most `slots` of the given tasks at once. */
function limiter(slots: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}
