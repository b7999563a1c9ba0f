import type { SandboxLimits, SandboxLimitsInForce } from "@raas/engine";
import { SANDBOX_MEMORY_HEADROOM_BYTES } from "./runtime-options";

/** What a concrete runtime knows about its enforcement, for `limitsInForce()`. */
export interface RuntimeLimitFacts {
  /** cgroup controllers sandboxes would get right now. */
  cgroups: { pids: boolean; memory: boolean };
  /** Whether `maxProcesses` is applied as RLIMIT_NPROC. */
  hasProcessRlimit: boolean;
  /** The watchdog's workspace bound (also each tool process's RLIMIT_FSIZE), when set. */
  workspaceSizeBytes?: number;
  shmBytes: number | null;
  tmpBytes: number | null;
  toolJail: SandboxLimitsInForce["toolJail"];
}

/**
 * Which limits are in force for `limits` and what enforces each: a cgroup where the runtime has
 * one, else the per-process rlimit or the host's watchdog; "none" where nothing bounds it.
 */
export function describeLimitsInForce(
  runtime: string,
  limits: SandboxLimits,
  facts: RuntimeLimitFacts,
): SandboxLimitsInForce {
  const memoryBytes = limits.memoryBytes ?? null;
  const workspaceBytes = facts.workspaceSizeBytes ?? null;
  const processesBy = facts.cgroups.pids ? "cgroup" : facts.hasProcessRlimit ? "rlimit" : "none";
  return {
    runtime,
    processes: {
      enforcedBy: limits.maxProcesses === undefined ? "none" : processesBy,
      max: limits.maxProcesses ?? null,
    },
    memory: {
      enforcedBy: memoryBytes === null ? "none" : facts.cgroups.memory ? "cgroup" : "watchdog",
      bytes: memoryBytes === null ? null : memoryBytes + SANDBOX_MEMORY_HEADROOM_BYTES,
    },
    cpuTotal: {
      enforcedBy: limits.totalCpuSec === undefined ? "none" : "watchdog",
      seconds: limits.totalCpuSec ?? null,
    },
    disk: { enforcedBy: workspaceBytes === null ? "none" : "watchdog", bytes: workspaceBytes },
    perProcess: {
      cpuSec: limits.cpuTimeSec ?? null,
      addressSpaceBytes: memoryBytes,
      fileBytes: workspaceBytes,
    },
    shmBytes: facts.shmBytes,
    tmpBytes: facts.tmpBytes,
    toolJail: facts.toolJail,
  };
}
