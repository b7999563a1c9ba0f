import { randomBytes } from "node:crypto";
import { unlinkSync } from "node:fs";
import {
  chmod,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  unlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { isProcessAlive, processIdentity } from "../host/process-tree";
import { type CacheEntryUsage, chooseEvictions } from "./cache-eviction";
import { acquireFileLock } from "./file-lock";
import { ImageCacheActivity } from "./image-cache-activity";
import { ImageCacheCounters, type ImageCacheReport } from "./image-cache-stats";
import { type ImageSource, imageContentKey, resolveImageSource } from "./image-source";
import { runImageTool } from "./image-tools";
import { unpackImage } from "./image-unpack";

/** Options of an {@link ImageCache}. */
export interface ImageCacheOptions {
  /**
   * Directory holding the unpacked images; created when missing. Share it between every process
   * of a host (they coordinate with file locks); sandboxes running as another uid must be able to
   * search the directories above it.
   */
  dir: string;
  /** Bytes of unpacked images kept; least recently used unreferenced ones beyond it are removed. Default 20 GiB. */
  capBytes?: number;
}

/** An image held for one sandbox: its root filesystem stays until `release` (idempotent). */
export interface ImageLease {
  /** Root filesystem directory to run on; never to be written. */
  rootfs: string;
  /** The image's content key; undefined for a directory used in place. */
  key: string | undefined;
  /** Whether the image was already unpacked (a directory used in place counts as one). */
  isHit: boolean;
  /** How long unpacking took, in ms (only when this acquire unpacked it). */
  unpackMs?: number;
  release(): Promise<void>;
}

/** Counts since this cache object was made. */
export interface ImageCacheStats {
  hits: number;
  unpacks: number;
  evictions: number;
}

/** An image this cache holds unpacked (`ImageCache.listUnpacked`). */
export interface UnpackedImage {
  /** Content key (digest-derived). */
  key: string;
  /**
   * References known to name it: the one it was unpacked from, and those this process acquired
   * it by. Placement compares them with a job's `SandboxSpec.image`.
   */
  references: string[];
  sizeBytes: number;
}

/** What a complete entry's `entry.json` says; written last, so its presence means complete. */
interface EntryMarker {
  key: string;
  reference: string;
  sizeBytes: number;
  unpackMs: number;
}

type PackedSource = Exclude<ImageSource, { kind: "rootfs-dir" }>;

/** Identity and version of a file: device, inode, size and mtime; undefined when it is gone. */
async function stampOf(path: string): Promise<string | undefined> {
  const info = await stat(path).catch(() => undefined);
  return info && `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`;
}

const MARKER = "entry.json";
const LAST_USED = "last-used";
const DEFAULT_CAP_BYTES = 20 * 1024 ** 3;

async function readMarker(entryDir: string): Promise<EntryMarker | undefined> {
  try {
    return JSON.parse(await readFile(join(entryDir, MARKER), "utf8")) as EntryMarker;
  } catch {
    return undefined;
  }
}

/**
 * Unpacked images keyed by content, shared by every process on a host through one directory:
 * `entries/<key>/` (complete: `rootfs/` + `entry.json`), `tmp/` (unpacks in progress), `locks/`
 * (one flock per key) and `refs/<key>/<pid:start>_<lease>` (one file per lease). An image is unpacked
 * once: acquirers of one key take its lock, the first unpacks into `tmp/` and renames the whole
 * entry into place with its marker, the others find it complete. An entry without a valid
 * marker (a crash mid-unpack) is removed and unpacked again, never used. Entries with no live
 * lease are evicted, least recently used first, when the total exceeds `capBytes`.
 */
export class ImageCache {
  readonly dir: string;
  readonly capBytes: number;
  readonly #stats: ImageCacheStats = { hits: 0, unpacks: 0, evictions: 0 };
  readonly #counters = new ImageCacheCounters();
  readonly #activity = new ImageCacheActivity();
  /** Each packed reference's source and key, with the stamp of the file they were read from. */
  readonly #resolved = new Map<
    string,
    { stampPath: string; stamp: string; source: PackedSource; key: string }
  >();
  readonly #identity = processIdentity(process.pid) ?? String(process.pid);

  constructor(options: ImageCacheOptions) {
    this.dir = options.dir;
    this.capBytes = options.capBytes ?? DEFAULT_CAP_BYTES;
  }

  get stats(): ImageCacheStats {
    return { ...this.#stats };
  }

  /** The complete entries of the cache directory (any process may have unpacked them). */
  async listUnpacked(): Promise<UnpackedImage[]> {
    const names = await readdir(join(this.dir, "entries")).catch(() => [] as string[]);
    const images: UnpackedImage[] = [];
    for (const key of names) {
      const marker = await readMarker(join(this.dir, "entries", key));
      if (marker?.key !== key) continue;
      const references = new Set([marker.reference]);
      for (const [reference, known] of this.#resolved) if (known.key === key) references.add(reference);
      images.push({ key, references: [...references], sizeBytes: marker.sizeBytes });
    }
    return images;
  }

  /** Hits, misses and unpack times per image, bytes used against the cap, and the images held. */
  async report(): Promise<ImageCacheReport> {
    return this.#counters.report(this.dir, await this.listUnpacked(), {
      capBytes: this.capBytes,
      evictions: this.#stats.evictions,
    });
  }

  /** The references this object is acquiring (unpacking, or finding unpacked) right now. */
  acquiring(): string[] {
    return this.#activity.acquiring();
  }

  /** Calls `listener` whenever what this object holds may have changed (an acquire began or ended, an eviction); returns its removal. */
  onChange(listener: () => void): () => void {
    return this.#activity.onChange(listener);
  }

  /** The root filesystem of `reference` (a directory, OCI layout or archive, or SIF file), unpacked once. */
  async acquire(reference: string): Promise<ImageLease> {
    const end = this.#activity.begin(reference);
    try {
      const lease = await this.#acquire(reference);
      this.#counters.recordAcquire(lease);
      return lease;
    } catch (error) {
      this.#counters.recordFailure();
      throw error;
    } finally {
      end();
    }
  }

  async #acquire(reference: string): Promise<ImageLease> {
    const resolved = await this.#resolve(reference);
    if ("rootfsDir" in resolved) {
      return { rootfs: resolved.rootfsDir, key: undefined, isHit: true, release: () => Promise.resolve() };
    }
    const { source, key } = resolved;
    for (const sub of ["entries", "tmp", "locks", `refs/${key}`]) {
      await mkdir(join(this.dir, sub), { recursive: true, mode: 0o755 });
    }
    // Sandboxes running as another uid pass through it to their root filesystem.
    const { mode } = await stat(this.dir);
    if ((mode & 0o011) !== 0o011) await chmod(this.dir, mode | 0o011);
    const lease = await this.#ensure(reference, key, source);
    await this.#evictOverCap().catch(() => undefined); // A failed eviction never fails a sandbox.
    return lease;
  }

  /**
   * What `reference` names and its content key, read once per file: a later acquire of an
   * unchanged file (or OCI index) only stats it, instead of telling its format again (an archive
   * listed with tar, a SIF's descriptors read) on every sandbox create.
   */
  async #resolve(reference: string): Promise<{ rootfsDir: string } | { source: PackedSource; key: string }> {
    const known = this.#resolved.get(reference);
    if (known && (await stampOf(known.stampPath)) === known.stamp) return known;
    const source = await resolveImageSource(reference);
    if (source.kind === "rootfs-dir") return { rootfsDir: source.path };
    const stampPath = source.kind === "oci-layout" ? join(source.path, "index.json") : source.path;
    const stamp = await stampOf(stampPath);
    const key = await imageContentKey(source);
    // Remembered only when the file stayed as it was while it was read.
    if (stamp !== undefined && (await stampOf(stampPath)) === stamp) {
      this.#resolved.set(reference, { stampPath, stamp, source, key });
    }
    return { source, key };
  }

  async #ensure(reference: string, key: string, source: PackedSource): Promise<ImageLease> {
    const lock = await acquireFileLock(join(this.dir, "locks", `${key}.lock`), { wait: true });
    if (!lock) throw new Error(`could not lock image cache entry ${key}`);
    try {
      const entryDir = join(this.dir, "entries", key);
      const marker = await readMarker(entryDir);
      const isHit =
        marker?.key === key &&
        (await stat(join(entryDir, "rootfs")).catch(() => undefined))?.isDirectory() === true;
      let unpackMs: number | undefined;
      if (isHit) this.#stats.hits += 1;
      else unpackMs = await this.#unpack(reference, key, source, entryDir);
      // Named by this process's identity (pid and start time): a reused pid is no live lease.
      const leaseFile = join(this.dir, "refs", key, `${this.#identity}_${randomBytes(6).toString("hex")}`);
      await writeFile(leaseFile, "");
      const now = new Date();
      await writeFile(join(entryDir, LAST_USED), "").then(() => utimes(join(entryDir, LAST_USED), now, now));
      let isReleased = false;
      return {
        rootfs: join(entryDir, "rootfs"),
        key,
        isHit,
        ...(unpackMs !== undefined ? { unpackMs } : {}),
        release: () => {
          // At once, not after a tick: a sandbox's close resolves with its lease already gone.
          if (!isReleased) {
            isReleased = true;
            try {
              unlinkSync(leaseFile);
            } catch {
              // Already gone: a cache directory removed under us holds no lease either.
            }
          }
          return Promise.resolve();
        },
      };
    } finally {
      await lock.release();
    }
  }

  /** Unpacks into a fresh temporary entry and renames it into place; the key's lock is held. */
  async #unpack(reference: string, key: string, source: PackedSource, entryDir: string): Promise<number> {
    // Whatever is there without a valid marker, and any temporary entry of this key, is left
    // over from a process that died while holding this lock: never used, removed.
    await this.#discard(entryDir);
    for (const name of await readdir(join(this.dir, "tmp"))) {
      if (name.startsWith(`${key}.`)) await this.#discard(join(this.dir, "tmp", name));
    }
    const tmp = join(this.dir, "tmp", `${key}.${process.pid}.${randomBytes(4).toString("hex")}`);
    const started = performance.now();
    try {
      await unpackImage(source, tmp);
      // umoci makes its bundle 0700; sandboxes running as another uid must reach rootfs/.
      await chmod(tmp, 0o755);
      const usage = await runImageTool("du", ["-s", "-B1", join(tmp, "rootfs")]);
      const unpackMs = Math.round(performance.now() - started);
      const marker: EntryMarker = { key, reference, sizeBytes: Number.parseInt(usage, 10), unpackMs };
      await writeFile(join(tmp, MARKER), JSON.stringify(marker), { flush: true });
      await rename(tmp, entryDir);
      this.#stats.unpacks += 1;
      return unpackMs;
    } catch (error) {
      await this.#discard(tmp);
      throw new Error(
        `could not unpack image ${reference}: ${error instanceof Error ? error.message : String(error)}`,
        {
          cause: error,
        },
      );
    }
  }

  /** Moves `path` out of sight at once, then removes it. */
  async #discard(path: string): Promise<void> {
    const trash = join(this.dir, "tmp", `trash-${randomBytes(6).toString("hex")}`);
    try {
      await rename(path, trash);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    await rm(trash, { recursive: true, force: true, maxRetries: 3 });
  }

  /** Whether a live process holds a lease on `key`; leases of dead processes are removed. */
  async #isReferenced(key: string): Promise<boolean> {
    const refsDir = join(this.dir, "refs", key);
    let isReferenced = false;
    for (const name of await readdir(refsDir).catch(() => [])) {
      if (isProcessAlive(name.split("_")[0] ?? "")) isReferenced = true;
      else await unlink(join(refsDir, name)).catch(() => undefined);
    }
    return isReferenced;
  }

  async #evictOverCap(): Promise<void> {
    const sizes: Array<{ key: string; sizeBytes: number }> = [];
    for (const key of await readdir(join(this.dir, "entries"))) {
      const marker = await readMarker(join(this.dir, "entries", key));
      if (marker) sizes.push({ key, sizeBytes: marker.sizeBytes });
    }
    // Within the cap nothing is evicted: no lease of any entry needs checking on this create.
    if (sizes.reduce((sum, entry) => sum + entry.sizeBytes, 0) <= this.capBytes) return;
    const usage: CacheEntryUsage[] = [];
    for (const { key, sizeBytes } of sizes) {
      const lastUsed = await stat(join(this.dir, "entries", key, LAST_USED)).catch(() => undefined);
      usage.push({
        key,
        sizeBytes,
        lastUsedMs: lastUsed?.mtimeMs ?? 0,
        isReferenced: await this.#isReferenced(key),
      });
    }
    for (const key of chooseEvictions(usage, this.capBytes)) {
      // An acquirer takes a lease under this lock, so checked again under it nothing sneaks in.
      const lock = await acquireFileLock(join(this.dir, "locks", `${key}.lock`), { wait: false });
      if (!lock) continue;
      try {
        if (await this.#isReferenced(key)) continue;
        await this.#discard(join(this.dir, "entries", key));
        this.#stats.evictions += 1;
        this.#activity.changed();
      } finally {
        await lock.release();
      }
    }
  }
}
