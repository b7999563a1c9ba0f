import type { HostDiskSample } from "./host-disk-monitor";
import type { WorkspaceUsage } from "./watchdog-decision";

/** Whose fault a full host disk during a sandbox's call was, and a sentence saying why. */
export interface HostDiskFault {
  blame: "policy" | "host";
  reason: string;
}

const MIB = 1024 ** 2;

/**
 * Who filled the disk holding the sandboxes, decided from the host's own measurements: the
 * policy when its workspace was over its quota (its limit, as the watchdog would say), or when
 * the workspace alone held at least half of what the disk had in use — bytes, or inodes when
 * those ran out (it filled a disk smaller than its quota by itself); otherwise the host — other sandboxes, other programs, a disk too
 * small for the load — and the call failed for want of a resource of the host, not for
 * anything the policy did.
 */
export function blameFullHostDisk(input: {
  sample: HostDiskSample;
  /** The workspace while the disk was full (the largest measurement). */
  workspace: Pick<WorkspaceUsage, "bytes" | "entries">;
  /** The workspace quota, when one is in force. */
  workspaceSizeBytes?: number;
}): HostDiskFault {
  const { sample, workspace, workspaceSizeBytes } = input;
  const workspaceBytes = workspace.bytes;
  if (workspaceSizeBytes !== undefined && workspaceBytes > workspaceSizeBytes) {
    return {
      blame: "policy",
      reason: `the workspace grew to ${mib(workspaceBytes)} MiB, over its limit of ${mib(workspaceSizeBytes)} MiB, and the host's disk ran full`,
    };
  }
  if (sample.freeInodes === 0 && sample.usedInodes !== null && workspace.entries * 2 >= sample.usedInodes) {
    return {
      blame: "policy",
      reason: `the workspace used up the host's disk's inodes: it held ${workspace.entries} of the ${sample.usedInodes} files in use`,
    };
  }
  if (workspaceBytes * 2 >= sample.usedBytes) {
    return {
      blame: "policy",
      reason: `the workspace filled the host's disk: it held ${mib(workspaceBytes)} MiB of the ${mib(sample.usedBytes)} MiB in use`,
    };
  }
  const inodes = sample.freeInodes === 0 ? ", no inodes left" : "";
  return {
    blame: "host",
    reason: `no space left on the host's disk holding the sandbox (${mib(sample.freeBytes)} MiB free of ${mib(sample.totalBytes)} MiB${inodes}; the workspace held ${mib(workspaceBytes)} MiB, within its limit)`,
  };
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(1);
}
