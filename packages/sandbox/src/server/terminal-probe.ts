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

// Syscall numbers as /proc/<pid>/syscall prints them (x86-64 first, then aarch64).
const READ_SYSCALLS = new Set(process.arch === "arm64" ? ["63"] : ["0"]);
const POLL_SYSCALLS = new Set(process.arch === "arm64" ? ["72", "73"] : ["7", "23", "270", "271"]);

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
      const isReadingStdin = READ_SYSCALLS.has(syscallNumber ?? "") && firstArg === "0x0";
      // REPLs built on readline wait in select/poll rather than read; with the terminal as
      // stdin and a silent program, that is the same situation.
      const isPolling = POLL_SYSCALLS.has(syscallNumber ?? "");
      if ((isReadingStdin || isPolling) && readlinkSync(`/proc/${pid}/fd/0`).startsWith("/dev/pts/")) {
        return pid !== shellPid || foreground === shellPid;
      }
    } catch {
      // The process ended or /proc is restricted: no evidence of an interactive wait.
    }
  }
  return false;
}
