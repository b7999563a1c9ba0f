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
