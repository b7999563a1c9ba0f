import { statfsSync } from "node:fs";
import type { WorkspaceUsage } from "./watchdog-decision";

/** What statfs said of the file system holding the sandboxes, at one moment. */
export interface HostDiskSample {
  /** Bytes an unprivileged writer (the sandboxes' uid) may still use. */
  freeBytes: number;
  totalBytes: number;
  /** Bytes in use by anyone (total minus free to root). */
  usedBytes: number;
  /** Inodes left; null when the file system does not count them (btrfs reports 0 of 0). */
  freeInodes: number | null;
  /** Inodes in use; null when the file system does not count them. */
  usedInodes: number | null;
  /** Too little room left for ordinary writes to succeed (see {@link HOST_DISK_FULL_BELOW_BYTES}). */
  isFull: boolean;
}

/**
 * Below this many free bytes the disk holding the sandboxes counts as full. Not zero: a write
 * larger than what is left fails with ENOSPC while a little room remains, and a failing writer
 * often removes its partial file again before anyone looks.
 */
const HOST_DISK_FULL_BELOW_BYTES = 1024 ** 2;

/** Between samples while any call is being watched, in ms. */
const SAMPLE_INTERVAL_MS = 250;

/** One watched call: what the samples taken during it saw, and the sandbox's workspace then. */
export interface HostDiskWatch {
  /** The disk was already full when the call began (it need not be sent at all). */
  readonly fullAtStart: HostDiskSample | undefined;
  /**
   * Ends the watch with one more sample: undefined when no sample during the call found the disk
   * full, else the last full sample and the largest workspace (bytes, entries) measured at a full sample.
   */
  end(): Promise<
    { sample: HostDiskSample; workspace: Pick<WorkspaceUsage, "bytes" | "entries"> } | undefined
  >;
}

/**
 * Watches the free space of the file system holding a runtime's sandboxes, from the host (the
 * sandboxes cannot see or change it): statfs when a call begins and ends and every
 * {@link SAMPLE_INTERVAL_MS} while any call is under way. Whether a call's file writes could have
 * failed for want of the host's space is then a fact the host holds, not text the policy's tools
 * printed (which the policy can forge). A statfs that fails (the directory is gone) tells nothing.
 */
export class HostDiskMonitor {
  readonly #path: string;
  readonly #watches = new Set<{ onFull: (sample: HostDiskSample) => void }>();
  #timer: NodeJS.Timeout | undefined;

  constructor(path: string) {
    this.#path = path;
  }

  /** statfs now; undefined when it fails. */
  sample(): HostDiskSample | undefined {
    let stats: ReturnType<typeof statfsSync>;
    try {
      stats = statfsSync(this.#path);
    } catch {
      return undefined;
    }
    const freeBytes = stats.bavail * stats.bsize;
    const totalBytes = stats.blocks * stats.bsize;
    const freeInodes = stats.files > 0 ? stats.ffree : null;
    const sample = {
      freeBytes,
      totalBytes,
      usedBytes: (stats.blocks - stats.bfree) * stats.bsize,
      freeInodes,
      usedInodes: stats.files > 0 ? stats.files - stats.ffree : null,
      isFull: freeBytes < HOST_DISK_FULL_BELOW_BYTES || freeInodes === 0,
    };
    if (sample.isFull) for (const watch of this.#watches) watch.onFull(sample);
    return sample;
  }

  /**
   * Watches one call. `measureWorkspace` (the calling sandbox's workspace) runs at once at
   * every full sample during the call, so what the workspace held while the disk was full is
   * known even if the call's files are removed before it ends.
   */
  watch(measureWorkspace: () => Promise<WorkspaceUsage>): HostDiskWatch {
    let lastFull: HostDiskSample | undefined;
    const measurements: Array<Promise<WorkspaceUsage | undefined>> = [];
    let isMeasuring = false;
    const entry = {
      onFull: (sample: HostDiskSample) => {
        lastFull = sample;
        // One walk at a time per call: samples come every 250 ms, a walk of a big workspace may take longer.
        if (isMeasuring) return;
        isMeasuring = true;
        measurements.push(
          measureWorkspace()
            .catch(() => undefined)
            .finally(() => {
              isMeasuring = false;
            }),
        );
      },
    };
    this.#watches.add(entry);
    const atStart = this.sample();
    this.#timer ??= setInterval(() => this.sample(), SAMPLE_INTERVAL_MS).unref();
    return {
      fullAtStart: atStart?.isFull ? atStart : undefined,
      end: async () => {
        this.sample();
        this.#watches.delete(entry);
        if (this.#watches.size === 0) {
          clearInterval(this.#timer);
          this.#timer = undefined;
        }
        if (lastFull === undefined) return undefined;
        const found = (await Promise.all(measurements)).filter((usage) => usage !== undefined);
        const workspace = {
          bytes: Math.max(0, ...found.map((usage) => usage.bytes)),
          entries: Math.max(0, ...found.map((usage) => usage.entries)),
        };
        return { sample: lastFull, workspace };
      },
    };
  }
}
