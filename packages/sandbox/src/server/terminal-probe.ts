import { readFileSync, readlinkSync } from "node:fs";

/** Fields of /proc/<pid>/stat after the command name; undefined when the process is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may contain spaces and parentheses; fields start after the last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** Foreground process group of the terminal `shellPid` is attached to, or undefined. */
export function foregroundProcessGroup(shellPid: number): number | undefined {
  const fields = statFields(shellPid);
  const tpgid = fields ? Number(fields[5]) : Number.NaN;
  return Number.isInteger(tpgid) && tpgid > 0 ? tpgid : undefined;
}

/**
 * True when the terminal's foreground process is blocked in read(2) on its terminal stdin,
 * i.e. an interactive program waits for input that will never come. Reads /proc, which a
 * process may always do for its own uid; any failure means "cannot tell" → false.
 */
export function isWaitingForTerminalInput(shellPid: number): boolean {
  const foreground = foregroundProcessGroup(shellPid) ?? shellPid;
  for (const pid of new Set([foreground, shellPid])) {
    try {
      const [syscallNumber, firstArg] = readFileSync(`/proc/${pid}/syscall`, "utf8").split(" ");
      // x86-64 read(2) is syscall 0; aarch64 is 63. Argument 0x0 is file descriptor 0.
      const isRead = syscallNumber === "0" || (process.arch === "arm64" && syscallNumber === "63");
      if (isRead && firstArg === "0x0" && readlinkSync(`/proc/${pid}/fd/0`).startsWith("/dev/pts/")) {
        return pid !== shellPid || foreground === shellPid;
      }
    } catch {
      // The process ended or /proc is restricted: no evidence of an interactive wait.
    }
  }
  return false;
}
