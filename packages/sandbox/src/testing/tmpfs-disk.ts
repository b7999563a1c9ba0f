import { spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statfsSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

const CHUNK = Buffer.alloc(1024 ** 2);

/**
 * A small tmpfs for tests of what happens when the disk holding sandboxes runs full: `baseDir`
 * is a sandbox base directory on it, `fill()` writes one file until the disk refuses, `free()`
 * removes it. Mounting needs root; anything else is an error that says so (never a skip).
 */
export class TmpfsDisk {
  readonly #mountPoint: string;
  /** A sandbox base directory on the tmpfs (searchable by the sandboxes' uid). */
  readonly baseDir: string;
  #isMounted = true;

  private constructor(mountPoint: string) {
    this.#mountPoint = mountPoint;
    this.baseDir = join(mountPoint, "sandboxes");
  }

  static mount(sizeMiB: number): TmpfsDisk {
    if (process.getuid?.() !== 0) {
      throw new Error("this test mounts a tmpfs to fill it (mount -t tmpfs): run it as root");
    }
    const mountPoint = mkdtempSync("/tmp/raas-tmpfs-disk-");
    chmodSync(mountPoint, 0o755);
    const mounted = spawnSync(
      "mount",
      ["-t", "tmpfs", "-o", `size=${sizeMiB}m,mode=755`, "tmpfs", mountPoint],
      {
        encoding: "utf8",
      },
    );
    if (mounted.status !== 0) {
      rmSync(mountPoint, { recursive: true, force: true });
      throw new Error(`mounting a ${sizeMiB} MiB tmpfs failed: ${mounted.stderr || mounted.error}`);
    }
    const disk = new TmpfsDisk(mountPoint);
    mkdirSync(disk.baseDir, { mode: 0o755 });
    return disk;
  }

  /** Writes a filler file until the disk has no room left (topping it up when called again). */
  fill(): void {
    const fd = openSync(join(this.#mountPoint, "filler.bin"), "a");
    try {
      for (;;) writeSync(fd, CHUNK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
    } finally {
      closeSync(fd);
    }
  }

  /** Removes the filler: the disk has room again. */
  free(): void {
    rmSync(join(this.#mountPoint, "filler.bin"), { force: true });
  }

  freeBytes(): number {
    const stats = statfsSync(this.#mountPoint);
    return stats.bavail * stats.bsize;
  }

  /** Unmounts (lazily if something still holds it) and removes the mount point. */
  unmount(): void {
    if (!this.#isMounted) return;
    this.#isMounted = false;
    if (spawnSync("umount", [this.#mountPoint]).status !== 0) spawnSync("umount", ["-l", this.#mountPoint]);
    rmSync(this.#mountPoint, { recursive: true, force: true });
  }
}
