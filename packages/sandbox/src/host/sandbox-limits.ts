import { blamePolicy } from "@raas/shared";
import { callWatchingHostDisk } from "./host-disk-call";
import { type CgroupLimitCounters, limitHitsOfCall } from "./limit-hits";
import type { ManagedSandboxOptions } from "./managed-sandbox.types";
import type { SandboxProcessRef } from "./process-table";
import { isSandboxFailure } from "./sandbox-failure";
import { DEFAULT_WORKSPACE_MAX_ENTRIES, SandboxWatchdog } from "./sandbox-watchdog";
import { WATCHDOG_CLOSE_REASONS, type WatchdogLimitHit } from "./watchdog-decision";
import { measureWorkspace } from "./workspace-usage";

/** What the limits need of their sandbox. */
export interface SandboxLimitHooks {
  /** The sandbox's processes, as of a moment ago (for the watchdog's samples). */
  processes: () => SandboxProcessRef[];
  emit: (type: string, detail: Record<string, unknown>) => void;
  /** Closes the sandbox (its teardown calls `stop`); `closeReason` goes on the `closed` event. */
  close: (closeReason: string) => void;
}

/**
 * The limits one sandbox's agent can use up, enforced from the host: the wall-time clock, the
 * watchdog's totals, a disk the policy filled, and the cgroup's counters. Remembers which limit
 * closed the sandbox, so that every failure from then on is blamed on the policy.
 */
export class SandboxLimits {
  readonly #options: ManagedSandboxOptions;
  readonly #hooks: SandboxLimitHooks;
  #wallTimer: NodeJS.Timeout | undefined;
  #watchdog: SandboxWatchdog | undefined;
  #isStopped = false;
  /** Set when a limit the agent used up closed the sandbox (the reason, for attribution). */
  #closure: string | undefined;
  #cgroupCounters: CgroupLimitCounters = { pidsLimitHits: 0, oomKills: 0 };

  constructor(options: ManagedSandboxOptions, hooks: SandboxLimitHooks) {
    this.#options = options;
    this.#hooks = hooks;
  }

  /** Why a limit the agent used up closed the sandbox; undefined while none has. */
  get closure(): string | undefined {
    return this.#closure;
  }

  /** Starts the wall-time clock, once (a pooled sandbox's idle wait must not count). */
  startWallClock(): void {
    const { wallTimeMs } = this.#options;
    if (wallTimeMs === undefined || this.#wallTimer || this.#isStopped) return;
    this.#wallTimer = setTimeout(
      () =>
        this.#closeForLimit(
          `the sandbox's wall-time limit of ${wallTimeMs} ms ran out`,
          { limit: "wallTime", wallTimeMs },
          "wall_time",
        ),
      wallTimeMs,
    );
    this.#wallTimer.unref();
  }

  /** Starts the watchdog, when the sandbox has limits only it can watch. */
  startWatchdog(): void {
    const limits = this.#options.watchdog;
    if (!limits || !SandboxWatchdog.isNeeded(limits) || this.#isStopped) return;
    this.#watchdog = new SandboxWatchdog({
      limits,
      processes: this.#hooks.processes,
      workspaceDir: this.#options.dirs.workspace,
      onLimitHit: (hit) => this.#onWatchdogHit(hit),
    });
    this.#watchdog.start();
  }

  /** Called as the sandbox starts closing: no limit closes it from here on. */
  stop(): void {
    this.#isStopped = true;
    clearTimeout(this.#wallTimer);
    this.#watchdog?.stop();
  }

  /** `error`, blamed on the policy when a limit it used up closed the sandbox. */
  blameClosure(error: unknown): unknown {
    if (!isSandboxFailure(error) || error.failure.cause === "policy" || !this.#closure) return error;
    return blamePolicy(error, this.#closure);
  }

  /**
   * Who caused a failed tool call. The agent's tools cannot reach the execution server (tool
   * jail), so a sandbox that dies during a call is the agent's doing only with evidence: a limit
   * the agent used up closed it (wall time, the watchdog's totals), or the kernel killed for
   * memory during the call. A crash without such evidence — the server killed from outside, a
   * host failure — is infrastructure, as is a sandbox that was already gone.
   */
  attributeToolFailure(error: unknown, tool: string): unknown {
    if (!isSandboxFailure(error) || error.failure.cause === "policy") return error;
    if (this.#closure) return blamePolicy(error, this.#closure);
    const oomKills = this.#options.plan.cgroup?.counters().oomKills ?? 0;
    if (error.failure.reason === "crashed" && oomKills > this.#cgroupCounters.oomKills) {
      return blamePolicy(
        error,
        `the sandbox ran out of memory during the agent's ${tool} call: ${error.message}`,
      );
    }
    return error;
  }

  /** One limit_hit per limit per call: from the output, and from cgroup counters when present. */
  reportToolCall(tool: string, fromOutput: string | undefined): void {
    const now = this.#options.plan.cgroup?.counters() ?? null;
    for (const hit of limitHitsOfCall(fromOutput, this.#cgroupCounters, now))
      this.#hooks.emit("limit_hit", { ...hit, tool });
    if (now) this.#cgroupCounters = now;
  }

  /** Runs a call that may write to the host's disk under the host's disk monitor (see host-disk-call.ts). */
  watchingHostDisk<T>(call: () => Promise<T>): Promise<T> {
    const { watchdog, dirs } = this.#options;
    const maxEntries = watchdog?.workspaceMaxEntries ?? DEFAULT_WORKSPACE_MAX_ENTRIES;
    return callWatchingHostDisk(
      {
        monitor: this.#options.hostDisk,
        measureWorkspace: () => measureWorkspace(dirs.workspace, maxEntries),
        workspaceSizeBytes: watchdog?.workspaceSizeBytes,
        limitClosure: () => this.#closure,
        onHostFull: (detail) => this.#hooks.emit("host_disk_full", detail),
        // The policy filled the disk: its limit, closed as the watchdog closes an over-quota
        // workspace (which also gives the disk back to the host's other sandboxes).
        onPolicyFull: (reason, detail) =>
          this.#closeForLimit(reason, { limit: "disk", source: "host_disk", ...detail }, "workspace_size"),
      },
      call,
    );
  }

  #onWatchdogHit(hit: WatchdogLimitHit): void {
    this.#closeForLimit(
      hit.reason,
      { limit: hit.limit, source: "watchdog", ...hit.detail },
      WATCHDOG_CLOSE_REASONS[hit.limit],
    );
  }

  /** Closes the sandbox because the agent used up one of its limits (unless it is closing already). */
  #closeForLimit(reason: string, event: Record<string, unknown>, closeReason: string): void {
    if (this.#isStopped) return;
    this.#closure = reason;
    this.#hooks.emit("limit_hit", event);
    this.#hooks.close(closeReason);
  }
}
