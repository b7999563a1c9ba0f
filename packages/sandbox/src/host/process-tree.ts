import { readFileSync } from "node:fs";
import { readProcStat } from "./process-table";

/** Identity of a process that survives pid reuse: pid plus its start time. */
export function processIdentity(pid: number): string | undefined {
  const stat = readProcStat(pid);
  return stat ? `${pid}:${stat.startTicks}` : undefined;
}

/** True when a process with exactly this identity still exists (zombies count as gone). */
export function isProcessAlive(identity: string): boolean {
  const pid = Number(identity.split(":")[0]);
  if (processIdentity(pid) !== identity) return false;
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

/** SIGKILLs each pid; the caller collected them from its own tree, never by name. */
export function killPids(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
