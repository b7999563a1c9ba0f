// The workers' sandbox disks: one small tmpfs per worker slot, so the driver can fill one and
// sandbox starts on that worker fail for lack of space, as on a node whose disk ran full. Each
// worker generation of a slot gets a sandbox base directory of its own (`RAAS_SANDBOX_DIR`): a
// replacement worker never starts on its predecessor's base directory, as a replacement on another
// node would not, so nothing it reaps at start-up hides a leak.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statfsSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

const FILL_CHUNK = Buffer.alloc(4 * 1024 * 1024);

export class SandboxDisks {
  readonly #generations = new Map<number, number>();
  readonly #mounted: string[] = [];

  private constructor(
    /** Parent of every slot's mount point (world-searchable: sandboxes run as another uid). */
    readonly root: string,
    readonly slots: number,
  ) {}

  /**
   * Mounts a tmpfs of `sizeMiB` per slot under a fresh directory of /tmp. Needs root (`mount`);
   * anything else is an error that says so.
   */
  static mount(slots: number, sizeMiB: number): SandboxDisks {
    const root = mkdtempSync("/tmp/raas-chaos-");
    chmodSync(root, 0o755);
    const disks = new SandboxDisks(root, slots);
    for (let slot = 0; slot < slots; slot += 1) {
      const dir = disks.slotDir(slot);
      mkdirSync(dir);
      const result = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${sizeMiB}m,mode=1777`, "tmpfs", dir], {
        encoding: "utf8",
      });
      if (result.status !== 0) {
        disks.unmount();
        throw new Error(
          `cannot mount a tmpfs for the sandbox disks (the chaos bench runs as root): ${result.stderr || result.error}`,
        );
      }
      disks.#mounted.push(dir);
    }
    return disks;
  }

  slotDir(slot: number): string {
    return join(this.root, `slot-${slot}`);
  }

  /** A new, empty sandbox base directory for the next worker of `slot`. */
  nextBaseDir(slot: number): string {
    const generation = (this.#generations.get(slot) ?? 0) + 1;
    this.#generations.set(slot, generation);
    const dir = join(this.slotDir(slot), `worker-${generation}`);
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    return dir;
  }

  /** Every sandbox base directory a worker of any slot has used. */
  baseDirs(): string[] {
    const dirs: string[] = [];
    for (let slot = 0; slot < this.slots; slot += 1) {
      const slotDir = this.slotDir(slot);
      if (!existsSync(slotDir)) continue;
      for (const name of readdirSync(slotDir)) if (name.startsWith("worker-")) dirs.push(join(slotDir, name));
    }
    return dirs;
  }

  /**
   * Fills the slot's disk with one file until writes fail for lack of space; called again it
   * tops the file up (sandboxes that closed meanwhile freed space). Returns bytes written.
   */
  fill(slot: number): number {
    const file = this.#fillerPath(slot);
    const fd = openSync(file, "a");
    let written = 0;
    try {
      for (;;) written += writeSync(fd, FILL_CHUNK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
    } finally {
      closeSync(fd);
    }
    return written;
  }

  freeBytes(slot: number): number {
    const stats = statfsSync(this.slotDir(slot));
    return stats.bavail * stats.bsize;
  }

  /** Removes the filler file: the disk has room again. */
  free(slot: number): void {
    rmSync(this.#fillerPath(slot), { force: true });
  }

  /** Unmounts every slot (lazily if something still holds it) and removes the directories. */
  unmount(): void {
    for (const dir of this.#mounted.splice(0)) {
      const result = spawnSync("umount", [dir]);
      if (result.status !== 0) spawnSync("umount", ["-l", dir]);
    }
    rmSync(this.root, { recursive: true, force: true });
  }

  #fillerPath(slot: number): string {
    return join(this.slotDir(slot), "chaos-filler.bin");
  }
}
