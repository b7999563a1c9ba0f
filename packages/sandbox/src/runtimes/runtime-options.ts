import type { SandboxLimits } from "@raas/engine";

/** Options shared by every sandbox runtime. */
export interface SandboxRuntimeOptions {
  /**
   * Host directory for per-sandbox directories and the server bundle. Default
   * `<os.tmpdir()>/raas-sandboxes`. When sandboxes run as another uid it gets search (x)
   * permission for group and others, so they can reach their own directories.
   */
  baseDir?: string;
  /** Limits for specs that omit them; merged field by field. Default {@link DEFAULT_LIMITS}. */
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
   * refills in the background; each idle member costs one sandbox's memory. Default 0 (off).
   */
  warmPoolSize?: number;
  /** Where warnings go (the local runtime's isolation warning). Default `console.warn`. */
  warn?: (message: string) => void;
}

/**
 * Defaults: 256 processes, 4 GiB address space and 600 CPU seconds per tool process, 64 KiB
 * of output per call, no wall-time limit (the engine's stage timeouts bound a job).
 */
export const DEFAULT_LIMITS: Readonly<SandboxLimits> = {
  maxProcesses: 256,
  memoryBytes: 4 * 1024 ** 3,
  cpuTimeSec: 600,
  maxOutputBytes: 65_536,
};

/** PATH inside sandboxes. */
export const SANDBOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
