import { readFileSync } from "node:fs";
import {
  accountCpu,
  CLOCK_TICKS_PER_SEC,
  type CpuAccount,
  EMPTY_CPU_ACCOUNT,
  type ProcSample,
  parseProcSample,
  totalRssBytes,
} from "./proc-usage";
import type { SandboxProcessRef } from "./process-table";
import { measureTmpfsBytes } from "./tmpfs-usage";
import {
  findLimitHit,
  type WatchdogLimitHit,
  type WatchdogLimits,
  type WatchdogUsage,
  type WorkspaceUsage,
} from "./watchdog-decision";
import { measureWorkspace } from "./workspace-usage";

export interface SandboxWatchdogOptions {
  limits: WatchdogLimits;
  /**
   * The sandbox's processes, as of a moment ago (a shared process table); a process whose
   * identity no longer matches its pid (ended, pid reused) is skipped.
   */
  processes: () => SandboxProcessRef[];
  /** Host path of the workspace (measured when `limits.workspaceSizeBytes` is set). */
  workspaceDir: string;
  /** Called once, for the first limit found exceeded; the watchdog stops before calling it. */
  onLimitHit: (hit: WatchdogLimitHit) => void;
  /** Between /proc samples, in ms. Default 500. */
  intervalMs?: number;
  /** Least time between workspace walks, in ms; a slow walk waits 10× its duration. Default 3_000. */
  workspaceIntervalMs?: number;
}

/** Walks stop after this many workspace entries unless the limits say otherwise. */
export const DEFAULT_WORKSPACE_MAX_ENTRIES = 500_000;

/**
 * Enforces whole-sandbox limits from the host where no cgroup does: samples the sandbox's
 * processes in /proc (CPU time, RSS) every `intervalMs` and measures the workspace every few
 * seconds, and reports the first limit exceeded. Needs no privileges and nothing inside the
 * sandbox, so the policy can neither see nor stop it. What it cannot do is prevent: usage may run
 * over a limit for up to one interval (a cgroup would refuse at once).
 */
export class SandboxWatchdog {
  readonly #options: Required<Omit<SandboxWatchdogOptions, "limits">> & { limits: WatchdogLimits };
  #timer: NodeJS.Timeout | undefined;
  #isStopped = false;
  #cpu: CpuAccount = EMPTY_CPU_ACCOUNT;
  #workspace: WorkspaceUsage | undefined;
  #isWalking = false;
  #nextWalkAt = 0;

  constructor(options: SandboxWatchdogOptions) {
    const { limits } = options;
    const workspaceMaxEntries =
      limits.workspaceSizeBytes === undefined
        ? limits.workspaceMaxEntries
        : (limits.workspaceMaxEntries ?? DEFAULT_WORKSPACE_MAX_ENTRIES);
    this.#options = {
      intervalMs: 500,
      workspaceIntervalMs: 3_000,
      ...options,
      limits: { ...limits, ...(workspaceMaxEntries !== undefined ? { workspaceMaxEntries } : {}) },
    };
  }

  /** Whether the limits ask for any watching at all. */
  static isNeeded(limits: WatchdogLimits): boolean {
    return (
      limits.totalCpuSec !== undefined ||
      limits.rssBytes !== undefined ||
      limits.workspaceSizeBytes !== undefined
    );
  }

  start(): void {
    if (this.#timer || this.#isStopped) return;
    this.#schedule();
  }

  stop(): void {
    this.#isStopped = true;
    clearTimeout(this.#timer);
  }

  /** Whole-sandbox CPU seconds, RSS and tmpfs bytes as of the last sample. */
  get usage(): WatchdogUsage {
    return {
      cpuSec: this.#cpu.totalTicks / CLOCK_TICKS_PER_SEC,
      rssBytes: this.#rssBytes,
      tmpfsBytes: this.#tmpfsBytes,
      ...this.#workspaceUsage(),
    };
  }

  #rssBytes = 0;
  #tmpfsBytes = 0;

  #workspaceUsage(): { workspace?: WorkspaceUsage } {
    return this.#workspace ? { workspace: this.#workspace } : {};
  }

  #schedule(): void {
    this.#timer = setTimeout(() => this.#tick(), this.#options.intervalMs);
    this.#timer.unref();
  }

  #tick(): void {
    if (this.#isStopped) return;
    const samples = sampleProcesses(this.#options.processes());
    this.#cpu = accountCpu(this.#cpu, samples);
    this.#rssBytes = totalRssBytes(samples);
    // Only the memory bound needs it (a memory cgroup charges tmpfs pages by itself).
    if (this.#options.limits.rssBytes !== undefined)
      this.#tmpfsBytes = measureTmpfsBytes(samples.map((sample) => sample.pid));
    this.#maybeWalkWorkspace();
    if (!this.#check()) this.#schedule();
  }

  /** True when a limit was hit (and reported). */
  #check(): boolean {
    if (this.#isStopped) return true;
    const hit = findLimitHit(this.usage, this.#options.limits);
    if (!hit) return false;
    this.stop();
    this.#options.onLimitHit(hit);
    return true;
  }

  #maybeWalkWorkspace(): void {
    const { workspaceSizeBytes, workspaceMaxEntries } = this.#options.limits;
    if (workspaceSizeBytes === undefined || this.#isWalking || Date.now() < this.#nextWalkAt) return;
    this.#isWalking = true;
    const startedAt = Date.now();
    measureWorkspace(this.#options.workspaceDir, workspaceMaxEntries ?? DEFAULT_WORKSPACE_MAX_ENTRIES)
      .then((usage) => {
        this.#workspace = usage;
        this.#check();
      })
      .catch(() => undefined) // The workspace is gone: the sandbox is closing.
      .finally(() => {
        this.#isWalking = false;
        const tookMs = Date.now() - startedAt;
        this.#nextWalkAt = Date.now() + Math.max(this.#options.workspaceIntervalMs - tookMs, 10 * tookMs);
      });
  }
}

/**
 * /proc samples of the given processes; processes that ended meanwhile are skipped, and so is a
 * pid that now belongs to another process than the one listed (a reused pid is not the sandbox's).
 */
function sampleProcesses(processes: readonly SandboxProcessRef[]): ProcSample[] {
  const samples: ProcSample[] = [];
  for (const { pid, identity } of processes) {
    try {
      const sample = parseProcSample(
        pid,
        readFileSync(`/proc/${pid}/stat`, "utf8"),
        readFileSync(`/proc/${pid}/status`, "utf8"),
      );
      if (sample && (identity === undefined || sample.identity === identity)) samples.push(sample);
    } catch {
      // Ended between listing and reading.
    }
  }
  return samples;
}
