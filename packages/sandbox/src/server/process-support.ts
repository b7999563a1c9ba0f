import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";

let nodePty: typeof import("node-pty") | undefined;

/**
 * node-pty is loaded on first use: its native module costs ~15–20 ms, which would otherwise
 * sit on every sandbox's path to readiness.
 */
export function loadNodePty(): typeof import("node-pty") {
  // The bundled server is CommonJS (has `require`); under tests this module runs as ESM.
  const load = typeof require === "function" ? require : createRequire(import.meta.url);
  nodePty ??= load("node-pty") as typeof import("node-pty");
  return nodePty;
}

/** Length of the longest suffix of `text` that is a proper prefix of `prefix`. */
export function partialPrefixLength(text: string, prefix: string): number {
  for (let length = Math.min(prefix.length - 1, text.length); length > 0; length -= 1) {
    if (text.endsWith(prefix.slice(0, length))) return length;
  }
  return 0;
}

/** SIGKILLs a process group we started (the shell's or the interpreter's), by its leader's pid. */
export function killProcessGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Direct children of `pid` (from /proc; empty when it is gone). */
export function childPids(pid: number): number[] {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return text === "" ? [] : text.split(" ").map(Number);
  } catch {
    // Kernels without CONFIG_PROC_CHILDREN: scan every process's parent.
    const children: number[] = [];
    for (const name of safeReaddir("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) children.push(Number(name));
      } catch {
        // Gone meanwhile.
      }
    }
    return children;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The pid (in this server's namespace) of the program a jail runs: bwrap forks a reaper that is
 * pid 1 of the jail, and the reaper forks the program. Undefined while it is not started yet.
 */
export function jailedProgramPid(bwrapPid: number): number | undefined {
  const reaper = childPids(bwrapPid)[0];
  return reaper === undefined ? undefined : childPids(reaper)[0];
}

/**
 * `argv` behind a `sh` that applies `ulimit` flags and execs it, so the rlimits bind the program
 * (and what it starts), never this server. No flags: `argv` unchanged.
 */
export function withUlimits(flags: readonly string[], argv: readonly string[]): string[] {
  if (flags.length === 0) return [...argv];
  const limits = flags.map((flag) => `ulimit ${flag} && `).join("");
  return ["/bin/sh", "-c", `${limits}exec "$@"`, "sh", ...argv];
}

/**
 * The ulimit flags with the address-space limit (`-v`, in KiB) raised to `bytes` when it is
 * lower; flags without one (no memory limit) are returned as they are.
 */
export function withAddressSpace(flags: readonly string[], bytes: number): string[] {
  const kib = Math.ceil(bytes / 1024);
  return flags.map((flag) => {
    const match = /^-v (\d+)$/.exec(flag);
    return match && Number(match[1]) < kib ? `-v ${kib}` : flag;
  });
}

/** Whether `pid` still runs (not gone, not a zombie waiting to be reaped). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}
