import { dirname } from "node:path";
import type { EngineLogger } from "../engine.types";
import { type Clock, systemClock } from "../ports/clock.port";
import { BUS_CHANNELS, type EventBus } from "../ports/event-bus.port";
import type { SandboxEventStore } from "../ports/sandbox-event-store.port";
import type { SandboxHostStatus, SandboxRuntime } from "../ports/sandbox-runtime.port";
import type { WorkerRecord, WorkerStore } from "../ports/worker-store.port";
import { parseWorkerBusMessage } from "../workers/worker-bus-message";

/** A dead host's newest `created` events looked at for the base directories of its sandboxes. */
const CREATED_EVENTS_LOOKED_AT = 1_000;

/** Default time between sweeps, in ms. */
const DEFAULT_DEAD_HOST_SWEEP_INTERVAL_MS = 30_000;
/** Default wait before the records a stopped host left open are closed for it, in ms. */
const DEFAULT_STOPPED_HOST_GRACE_MS = 60_000;

export interface DeadHostSweeperOptions {
  /** Where hosts (worker ids) are known as active, draining, lost or stopped. */
  workers: Pick<WorkerStore, "get">;
  /** This process's host id: its own records and directories are never swept. */
  selfHostId: string;
  /**
   * Sandbox records to close for dead hosts. Give it on the process that watches workers (the
   * server); omit it elsewhere. Default none.
   */
  records?: SandboxEventStore;
  /** The runtime whose base directory is reaped; omit when this process runs no sandboxes. */
  runtime?: Pick<SandboxRuntime, "reapStaleDirs">;
  /** A worker announced `lost` on `BUS_CHANNELS.workers` starts a sweep at once. Default none. */
  bus?: EventBus;
  /** Time between sweeps, in ms. Default `DEFAULT_DEAD_HOST_SWEEP_INTERVAL_MS` (30_000). */
  intervalMs?: number;
  /**
   * A stopped host closes its own sandboxes and records as it stops (after it marked itself
   * stopped): it counts as gone only this long after it stopped, in ms. Default 60_000.
   */
  stoppedGraceMs?: number;
  clock?: Clock;
  logger?: EngineLogger;
}

/** What one sweep did. */
export interface DeadHostSweep {
  /** Sandbox records closed for hosts that are lost or stopped. */
  closedRecords: number;
  /** Sandbox directories removed because their host is dead. */
  removedDirs: number;
}

/**
 * Cleans up after sandbox hosts (workers) that died or stopped: closes the sandbox records they
 * left open (`worker_lost`, `worker_stopped`), so nothing counts them as live, and removes their
 * sandbox directories from this process's base directory wherever they were made (a node sharing
 * it). Runs every `intervalMs` and at once when a worker is announced lost or stopped; each sweep
 * is idempotent, so several processes may sweep the same hosts.
 */
export class DeadHostSweeper {
  readonly #options: DeadHostSweeperOptions;
  readonly #clock: Clock;
  #cancelTimer: (() => void) | null = null;
  #unsubscribe: (() => Promise<void>) | null = null;
  #sweeping: Promise<DeadHostSweep> | null = null;
  #isAgain = false;
  #isRunning = false;

  constructor(options: DeadHostSweeperOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  /** Sweeps now, then every interval and on each `lost` announcement. */
  async start(): Promise<void> {
    if (this.#isRunning) return;
    this.#isRunning = true;
    const { bus, logger } = this.#options;
    if (bus) {
      this.#unsubscribe = await bus
        .subscribe(BUS_CHANNELS.workers, (message) => {
          const parsed = parseWorkerBusMessage(message);
          if (parsed?.type === "lost") this.#sweepInBackground();
        })
        .catch((error: unknown) => {
          logger?.warn({ err: error }, "not listening for lost workers; sweeping on the interval only");
          return null;
        });
    }
    this.#sweepInBackground();
    this.#schedule();
  }

  async stop(): Promise<void> {
    this.#isRunning = false;
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    await this.#unsubscribe?.().catch(() => undefined);
    this.#unsubscribe = null;
    await this.#sweeping?.catch(() => undefined);
  }

  /**
   * Sweeps now; a call while a sweep runs starts one more after it (a host may have died meanwhile).
   * Throws when the store fails.
   */
  sweep(): Promise<DeadHostSweep> {
    if (this.#sweeping) {
      this.#isAgain = true;
      return this.#sweeping;
    }
    this.#sweeping = this.#sweepOnce().finally(() => {
      this.#sweeping = null;
      if (this.#isAgain && this.#isRunning) {
        this.#isAgain = false;
        this.#sweepInBackground();
      }
    });
    return this.#sweeping;
  }

  /** What the store says of a host: `gone` once lost, or stopped for `stoppedGraceMs`. */
  async hostStatus(hostId: string): Promise<SandboxHostStatus> {
    if (hostId === this.#options.selfHostId) return "live";
    const worker = await this.#options.workers.get(hostId);
    if (!worker) return "unknown";
    return this.#closureFor(worker) ? "gone" : "live";
  }

  async #sweepOnce(): Promise<DeadHostSweep> {
    const { runtime, logger } = this.#options;
    const { closed: closedRecords, baseDirs } = await this.#closeRecords();
    const removed =
      (await runtime?.reapStaleDirs?.((hostId) => this.hostStatus(hostId), { baseDirs: [...baseDirs] })) ??
      [];
    if (closedRecords > 0 || removed.length > 0) {
      logger?.info(
        { closedRecords, removedDirs: removed.length },
        "cleaned up after dead sandbox hosts: records closed, directories removed",
      );
    }
    return { closedRecords, removedDirs: removed.length };
  }

  /**
   * Closes the open records of dead hosts. Returns how many, and the base directories their
   * sandboxes were made in (from each one's `created` event): a dead worker's base directory may be
   * one no live process shares, and this process may see it (the same node, a shared file system).
   */
  async #closeRecords(): Promise<{ closed: number; baseDirs: Set<string> }> {
    const { records, workers, selfHostId, logger } = this.#options;
    const baseDirs = new Set<string>();
    if (!records) return { closed: 0, baseDirs };
    let closed = 0;
    for (const hostId of await records.listOpenHostIds()) {
      if (hostId === selfHostId) continue;
      const worker = await workers.get(hostId);
      const closure = worker ? this.#closureFor(worker) : null;
      if (!closure) continue;
      const ids = new Set(await records.closeHostSandboxes(hostId, { ...closure, atMs: this.#clock.now() }));
      if (ids.size === 0) continue;
      logger?.warn(
        { hostId, sandboxes: ids.size, reason: closure.reason },
        "closed the sandbox records a dead host left open",
      );
      closed += ids.size;
      const created = await records.listEvents({ hostId, type: "created", limit: CREATED_EVENTS_LOOKED_AT });
      for (const event of created) {
        const hostDir = event.detail?.hostDir;
        if (ids.has(event.sandboxId) && typeof hostDir === "string") baseDirs.add(dirname(hostDir));
      }
    }
    return { closed, baseDirs };
  }

  #closureFor(worker: WorkerRecord): { reason: string; state: "closed" | "failed" } | null {
    if (worker.status === "lost") return { reason: "worker_lost", state: "failed" };
    if (worker.status !== "stopped") return null;
    const graceMs = this.#options.stoppedGraceMs ?? DEFAULT_STOPPED_HOST_GRACE_MS;
    const stoppedAtMs = worker.stoppedAtMs ?? worker.heartbeatAtMs;
    return this.#clock.now() - stoppedAtMs >= graceMs ? { reason: "worker_stopped", state: "closed" } : null;
  }

  #sweepInBackground(): void {
    this.sweep().catch((error: unknown) =>
      this.#options.logger?.warn(
        { err: error },
        "sweeping after dead sandbox hosts failed; trying again later",
      ),
    );
  }

  #schedule(): void {
    if (!this.#isRunning) return;
    this.#cancelTimer = this.#clock.setTimer(() => {
      this.#cancelTimer = null;
      this.#sweepInBackground();
      this.#schedule();
    }, this.#options.intervalMs ?? DEFAULT_DEAD_HOST_SWEEP_INTERVAL_MS);
  }
}
