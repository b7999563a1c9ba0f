import { readdirSync, readFileSync } from "node:fs";

interface ProcStat {
  pid: number;
  ppid: number;
  startTicks: string;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { pid, ppid: Number(fields[1]), startTicks: fields[19] ?? "" };
  } catch {
    return undefined;
  }
}

/** `rootPid` and all its descendants, found by walking parent links in /proc. */
export function listProcessTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = readStat(pid);
    if (!stat) continue;
    const siblings = children.get(stat.ppid) ?? [];
    siblings.push(pid);
    children.set(stat.ppid, siblings);
  }
  const tree: number[] = [];
  const queue = readStat(rootPid) ? [rootPid] : [];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Identity of a process that survives pid reuse: pid plus its start time. */
export function processIdentity(pid: number): string | undefined {
  const stat = readStat(pid);
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
