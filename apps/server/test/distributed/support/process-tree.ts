import { readdirSync, readFileSync } from "node:fs";

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** The executable's name as the kernel keeps it (`bwrap`, `node`). */
  comm: string;
  /** `Z` for a zombie (dead, not yet reaped). */
  state: string;
}

/** One process from /proc, or null when it is gone. */
export function readProcess(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // `pid (comm) state ppid …`; comm may hold spaces and parentheses: split at the last ')'.
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const [state = "", ppid = "0"] = stat.slice(close + 2).split(" ");
    return { pid, ppid: Number(ppid), comm, state };
  } catch {
    return null;
  }
}

/** Every process below `rootPid` (children, their children, …). */
export function descendantsOf(rootPid: number): ProcessInfo[] {
  const all: ProcessInfo[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProcess(Number(name));
    if (info) all.push(info);
  }
  const found: ProcessInfo[] = [];
  const parents = new Set([rootPid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const info of all) {
      if (parents.has(info.ppid) && !parents.has(info.pid)) {
        parents.add(info.pid);
        found.push(info);
        grew = true;
      }
    }
  }
  return found;
}

/** True while `pid` runs (a zombie no longer runs). */
export function isRunning(pid: number): boolean {
  const info = readProcess(pid);
  return info !== null && info.state !== "Z";
}
