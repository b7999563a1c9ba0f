// CPU time of processes and of the whole machine from /proc, to say where a row's time goes.
import { readFileSync } from "node:fs";

const TICKS_PER_SEC = 100; // USER_HZ on Linux

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
export function processCpuSec(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After `pid (comm)`: state is field 3, utime 14 and stime 15 (1-based) → indexes 11 and 12 here.
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SEC;
  } catch {
    return 0;
  }
}

/** Busy and total CPU seconds of the machine (every core) so far. */
export function machineCpuSec(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((sum, n) => sum + n, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0); // idle + iowait
  return { busy: (total - idle) / TICKS_PER_SEC, total: total / TICKS_PER_SEC };
}
