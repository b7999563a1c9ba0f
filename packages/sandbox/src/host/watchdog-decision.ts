/** Whole-sandbox limits the host's watchdog enforces (see sandbox-watchdog.ts). */
export interface WatchdogLimits {
  /** CPU seconds of the whole sandbox. */
  totalCpuSec?: number;
  /**
   * Memory of the whole sandbox, in bytes: the summed RSS of its processes plus the bytes in its
   * tmpfs mounts (only where no memory cgroup is in force; a cgroup charges both itself).
   */
  rssBytes?: number;
  /** Bytes the workspace may occupy on disk. */
  workspaceSizeBytes?: number;
  /** Files, directories and links the workspace may hold (bounds the walk that measures it). */
  workspaceMaxEntries?: number;
}

/** What the workspace walk found; `isComplete` false when it stopped at the entry bound. */
export interface WorkspaceUsage {
  bytes: number;
  entries: number;
  isComplete: boolean;
}

export interface WatchdogUsage {
  cpuSec: number;
  rssBytes: number;
  /** Bytes in the sandbox's tmpfs mounts (/tmp, /dev/shm, each command's /tmp); 0 when not measured. */
  tmpfsBytes: number;
  /** Latest workspace measurement, when one was taken. */
  workspace?: WorkspaceUsage;
}

export type WatchdogLimitName = "cpuTotal" | "memory" | "disk";

export interface WatchdogLimitHit {
  limit: WatchdogLimitName;
  /** A sentence for the policy's failure record. */
  reason: string;
  /** Numbers for the `limit_hit` event. */
  detail: Record<string, number>;
}

const MIB = 1024 ** 2;

/** The first limit the usage is over (memory, then CPU, then disk), or undefined. */
export function findLimitHit(usage: WatchdogUsage, limits: WatchdogLimits): WatchdogLimitHit | undefined {
  const memoryBytes = usage.rssBytes + usage.tmpfsBytes;
  if (limits.rssBytes !== undefined && memoryBytes > limits.rssBytes) {
    const files =
      usage.tmpfsBytes > 0
        ? ` (${mib(usage.tmpfsBytes)} MiB of it files in /tmp, /dev/shm and other tmpfs)`
        : "";
    return {
      limit: "memory",
      reason: `the sandbox's processes used ${mib(memoryBytes)} MiB of memory together${files}, over its bound of ${mib(limits.rssBytes)} MiB`,
      detail: { rssBytes: usage.rssBytes, tmpfsBytes: usage.tmpfsBytes, limitBytes: limits.rssBytes },
    };
  }
  if (limits.totalCpuSec !== undefined && usage.cpuSec > limits.totalCpuSec) {
    return {
      limit: "cpuTotal",
      reason: `the sandbox used ${usage.cpuSec.toFixed(1)} CPU seconds in total, over its limit of ${limits.totalCpuSec}`,
      detail: { cpuSec: usage.cpuSec, limitSec: limits.totalCpuSec },
    };
  }
  const workspace = usage.workspace;
  if (!workspace) return undefined;
  if (limits.workspaceSizeBytes !== undefined && workspace.bytes > limits.workspaceSizeBytes) {
    return {
      limit: "disk",
      reason: `the workspace grew to ${mib(workspace.bytes)} MiB, over its limit of ${mib(limits.workspaceSizeBytes)} MiB`,
      detail: { workspaceBytes: workspace.bytes, limitBytes: limits.workspaceSizeBytes },
    };
  }
  if (limits.workspaceMaxEntries !== undefined && !workspace.isComplete) {
    return {
      limit: "disk",
      reason: `the workspace holds more than ${limits.workspaceMaxEntries} files and directories`,
      detail: { workspaceEntries: workspace.entries, limitEntries: limits.workspaceMaxEntries },
    };
  }
  return undefined;
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(1);
}

/** The `closed` event reason of each watchdog limit. */
export const WATCHDOG_CLOSE_REASONS: Record<WatchdogLimitName, string> = {
  cpuTotal: "cpu_total",
  memory: "memory_total",
  disk: "workspace_size",
};
