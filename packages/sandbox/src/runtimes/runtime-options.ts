import type { SandboxLimits } from "@raas/engine";

/** Options shared by every sandbox runtime. */
export interface SandboxRuntimeOptions {
  /**
   * Host directory for per-sandbox directories and the server bundle. Default
   * `<os.tmpdir()>/raas-sandboxes`. When sandboxes run as another uid it gets search (x)
   * permission for group and others, so they can reach their own directories.
   */
  baseDir?: string;
  /**
   * Host directory for the execute-only copies of node and bash every sandbox runs (not readable
   * inside, so the execution server and the shell cannot be traced by the tools), shared by every
   * base directory and runtime of this user: a base directory never holds a ~96 MB copy of node.
   * Must be owned by this process's user and writable by no one else. Default
   * `<os.tmpdir()>/raas-exec-bin-<uid>`.
   */
  execBinDir?: string;
  /**
   * This process's sandbox host id (its worker id), written into each sandbox directory's owner
   * file: a process sharing the base directory on another node removes the directories of a host
   * the store says is gone (`reapStaleDirs`). Default none (only this node's pids tell).
   */
  hostId?: string;
  /**
   * Limits for specs that omit them; merged field by field over {@link DEFAULT_LIMITS} (a field
   * given as undefined unsets that default; a spec's undefined field keeps the runtime's).
   */
  defaultLimits?: SandboxLimits;
  /** How long a sandbox may take to become ready, in ms. Default 15_000. */
  startTimeoutMs?: number;
  /** Tool-call timeout when the caller gives none, in ms. Default 60_000. */
  defaultToolTimeoutMs?: number;
  /** Silence after which bash checks whether the program waits for terminal input, in ms. Default 2_000. */
  noOutputTimeoutMs?: number;
  /** Slack beyond a call's timeout before a silent server counts as hung, in ms. Default 10_000. */
  hangSlackMs?: number;
  /** Python interpreter inside the sandbox. Default `python3` (looked up on the sandbox PATH). */
  pythonPath?: string;
  /** Shell inside the sandbox. Default `/bin/bash`. */
  shellPath?: string;
  /**
   * Sandboxes kept started ahead of demand with the runtime's defaults. `create` takes one when
   * the spec sets no image, env or limits (its files are written in through the server), then
   * refills in the background; each idle member costs one sandbox's memory. A number keeps that
   * many from `warmUp` on; `"auto"` keeps none until a group forks (`createFrom`), then as many as
   * the largest group since the pool was last idle used (its template's sandbox and its members),
   * at most `warmPoolMaxSize`, and closes them after `warmPoolIdleMs` without a take. Default 0 (off).
   */
  warmPoolSize?: number | "auto";
  /** Most sandboxes an `"auto"` warm pool keeps ready. Default 16. */
  warmPoolMaxSize?: number;
  /** An `"auto"` warm pool nobody took from (nor forked) for this long closes its sandboxes, in ms. Default 300_000. */
  warmPoolIdleMs?: number;
  /** Where warnings go (the local runtime's isolation warning). Default `console.warn`. */
  warn?: (message: string) => void;
  /**
   * Run sandboxes with no whole-sandbox memory bound. Without a `memoryBytes` limit there is
   * neither a memory cgroup nor the watchdog's RSS bound, so a sandbox may take the host's memory;
   * the runtime refuses to be constructed that way unless this is true. Default false.
   */
  allowUnboundedMemory?: boolean;
}

/**
 * Memory the execution server and shell need on top of the tools' own `memoryBytes`, in bytes:
 * added to the whole-sandbox bound (memory cgroup or watchdog).
 */
export const SANDBOX_MEMORY_HEADROOM_BYTES = 128 * 1024 ** 2;

/**
 * Defaults: 256 processes, 4 GiB address space and 600 CPU seconds per tool process (4 GiB +
 * headroom for the whole sandbox), 64 KiB of output per call, no wall-time or whole-sandbox CPU
 * limit (the engine's stage timeouts bound a job).
 */
export const DEFAULT_LIMITS: Readonly<SandboxLimits> = {
  maxProcesses: 256,
  memoryBytes: 4 * 1024 ** 3,
  cpuTimeSec: 600,
  maxOutputBytes: 65_536,
};

/**
 * Bytes a bubblewrap sandbox's workspace may occupy unless told otherwise: 4 GiB. Enforced with
 * no cgroup and no root (each tool process's RLIMIT_FSIZE, the watchdog's walk for the total), so
 * it holds with default settings; a sandbox once wrote a 5 GiB file where nothing bounded it, which
 * this refuses. Generous on purpose: a SWE-bench repository with its git history takes hundreds of MiB, which leaves
 * room for build products, virtual environments and a pip cache; going over is the policy's
 * failure (a `disk` limit hit), not the service's.
 */
export const DEFAULT_WORKSPACE_SIZE_BYTES = 4 * 1024 ** 3;

/** PATH inside sandboxes. */
export const SANDBOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** `defaults` overlaid with the fields `overrides` sets; a field given as undefined keeps its default. */
export function mergeLimits(defaults: SandboxLimits, overrides: SandboxLimits = {}): SandboxLimits {
  const merged: SandboxLimits = { ...defaults };
  for (const [key, value] of Object.entries(overrides) as Array<[keyof SandboxLimits, number | undefined]>) {
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}
