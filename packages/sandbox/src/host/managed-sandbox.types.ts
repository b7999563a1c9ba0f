import type { TSandboxEvent } from "@raas/shared";
import type { HostDiskMonitor } from "./host-disk-monitor";
import type { SandboxCgroup } from "./sandbox-cgroup";
import type { SandboxDirs } from "./sandbox-dirs";
import type { WatchdogLimits } from "./watchdog-decision";

/** How a runtime starts the execution server for one sandbox. */
export interface LaunchPlan {
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Host uid/gid to run the launcher as (root hosts drop to an unprivileged uid). */
  uid?: number;
  gid?: number;
  /** cgroups the launcher joins before it execs, when the runtime could create them. */
  cgroup?: SandboxCgroup;
}

export interface ManagedSandboxOptions {
  id: string;
  jobId: string | null;
  dirs: SandboxDirs;
  /** Where the run directory and the server bundle sit inside the sandbox (for `hostChannel`). */
  inside: { run: string; serverDir: string };
  plan: LaunchPlan;
  /** Give up on readiness after this many ms. */
  startTimeoutMs: number;
  /** Close the sandbox after this many ms of life; unset = no wall limit. */
  wallTimeMs?: number;
  /** Whole-sandbox limits the host watches from /proc and the workspace (see sandbox-watchdog.ts). */
  watchdog?: WatchdogLimits;
  /** Slack on top of a call's timeout before the sandbox is declared hung, in ms. */
  hangSlackMs: number;
  /** Timeout the server applies when a call gives none, in ms (used for hang detection). */
  defaultTimeoutMs: number;
  /** Watches the disk holding the sandbox's directories (shared by a runtime's sandboxes); none: unwatched. */
  hostDisk?: HostDiskMonitor;
  emit: (event: TSandboxEvent) => void;
  onGone: () => void;
}
