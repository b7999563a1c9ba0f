import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { childPids } from "./process-support";

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

// Syscall numbers as /proc/<pid>/syscall prints them.
const SYSCALLS =
  process.arch === "arm64"
    ? { read: [63], poll: [73], select: [72] }
    : { read: [0], poll: [7, 271], select: [23, 270] };
const POLLIN = 0x1;
const POLLFD_BYTES = 8;
/** More descriptors than this in one poll/select is not a program waiting on its terminal. */
const MAX_WATCHED_FDS = 1_024;

/** Foreground process group of the terminal `shellPid` is attached to, or undefined. */
export function foregroundProcessGroup(shellPid: number): number | undefined {
  const fields = statFields(shellPid);
  const tpgid = fields ? Number(fields[5]) : Number.NaN;
  return Number.isInteger(tpgid) && tpgid > 0 ? tpgid : undefined;
}

/** Major numbers of pseudo-terminal slaves (UNIX98_PTY_SLAVE_MAJOR and its 7 successors). */
const PTY_SLAVE_MAJORS = { first: 136, last: 143 };

/**
 * Whether `fd` of `pid` is a pseudo-terminal, by the device itself: inside a jail the same pty may
 * be named /dev/console or a /dev/pts path of another devpts mount.
 */
function isTerminal(pid: number, fd: number): boolean {
  try {
    const stat = statSync(`/proc/${pid}/fd/${fd}`);
    const major = Number((BigInt(stat.rdev) >> 8n) & 0xfffn);
    return stat.isCharacterDevice() && major >= PTY_SLAVE_MAJORS.first && major <= PTY_SLAVE_MAJORS.last;
  } catch {
    return false;
  }
}

function readMemory(pid: number, address: bigint, length: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/mem`, "r");
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, address);
    return read === length ? buffer : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The descriptors a blocked poll/ppoll waits to read, from its pollfd array. */
function polledForInput(pid: number, address: bigint, count: number): number[] {
  if (count <= 0 || count > MAX_WATCHED_FDS) return [];
  const array = readMemory(pid, address, count * POLLFD_BYTES);
  if (!array) return [];
  const fds: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const fd = array.readInt32LE(index * POLLFD_BYTES);
    const events = array.readInt16LE(index * POLLFD_BYTES + 4);
    if (fd >= 0 && (events & POLLIN) !== 0) fds.push(fd);
  }
  return fds;
}

/** The descriptors a blocked select/pselect6 waits to read, from its read set. */
function selectedForInput(pid: number, nfds: number, address: bigint): number[] {
  if (nfds <= 0 || nfds > MAX_WATCHED_FDS || address === 0n) return [];
  const set = readMemory(pid, address, Math.ceil(nfds / 8));
  if (!set) return [];
  const fds: number[] = [];
  for (let fd = 0; fd < nfds; fd += 1) if ((set[fd >> 3]! >> (fd & 7)) & 1) fds.push(fd);
  return fds;
}

/**
 * True when `pid` is blocked waiting to read its terminal: in read(2) on a pty, or in
 * poll/select whose read set holds a pty (a REPL). A process that polls pipes or sleeps — a
 * test runner waiting for its child, a silent build — is not, however long it stays quiet.
 */
function isReadingTerminal(pid: number): boolean {
  let fields: string[];
  try {
    fields = readFileSync(`/proc/${pid}/syscall`, "utf8").trim().split(" ");
  } catch {
    return false; // Gone, or /proc is restricted: no evidence of an interactive wait.
  }
  const number = Number(fields[0]);
  const arg = (index: number) => {
    try {
      return BigInt(fields[index + 1] ?? "0");
    } catch {
      return 0n;
    }
  };
  let fds: number[] = [];
  if (SYSCALLS.read.includes(number)) fds = [Number(arg(0))];
  else if (SYSCALLS.poll.includes(number)) fds = polledForInput(pid, arg(0), Number(arg(1)));
  else if (SYSCALLS.select.includes(number)) fds = selectedForInput(pid, Number(arg(0)), arg(1));
  return fds.some((fd) => isTerminal(pid, fd));
}

/** Pids of the members of process group `pgid` (read from /proc). */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [pgid];
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === pgid || Number(statFields(pid)?.[2]) === pgid) members.push(pid);
  }
  return members;
}

/**
 * True when a process of the terminal's foreground job — or the shell itself, in a `read`
 * builtin while a command runs — is blocked reading the terminal: an interactive program waits
 * for input that will never come. Called only while a command runs.
 */
export function isWaitingForTerminalInput(shellPid: number): boolean {
  const foreground = foregroundProcessGroup(shellPid) ?? shellPid;
  if (groupMembers(foreground).some(isReadingTerminal)) return true;
  // The shell is not dumpable (its /proc/<pid>/syscall is closed even to this server): in the
  // foreground, asleep and without children while a command runs, it is in a `read` builtin.
  return foreground === shellPid && statFields(shellPid)?.[0] === "S" && childPids(shellPid).length === 0;
}

/** Every descendant of `rootPid` (the session's jail or shell), depth-first. */
function descendants(rootPid: number): number[] {
  const found: number[] = [];
  const stack = [rootPid];
  while (stack.length > 0 && found.length < 4_096) {
    for (const child of childPids(stack.pop()!)) {
      found.push(child);
      stack.push(child);
    }
  }
  return found;
}

/**
 * Processes under `rootPid`, other than the shell, blocked reading the terminal while the shell
 * sits at its prompt. None has a reason to: a background job of the shell's own session would be
 * stopped by SIGTTIN, so such a reader left the session to take the next typed line (with its
 * end-marker nonce) before the shell does.
 */
export function terminalThieves(rootPid: number, shellPid: number): number[] {
  // The jail's own reaper (a direct child of the root) and the shell are never thieves; with no
  // other process alive this costs a few /proc reads and no syscall probe.
  const skip = new Set([shellPid, ...(rootPid === shellPid ? [] : childPids(rootPid))]);
  return descendants(rootPid).filter((pid) => !skip.has(pid) && isReadingTerminal(pid));
}
