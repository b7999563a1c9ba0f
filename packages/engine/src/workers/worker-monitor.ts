import type { EngineLogger } from "../engine.types";
import { type Clock, systemClock } from "../ports/clock.port";
import { BUS_CHANNELS, type EventBus } from "../ports/event-bus.port";
import type { WorkerRecord, WorkerStore } from "../ports/worker-store.port";
import type { StoreHealth } from "../store-health/store-health";
import { parseWorkerBusMessage, type TWorkerBusMessage } from "./worker-bus-message";
import { DEFAULT_MISSED_AFTER_MS, DEFAULT_MONITOR_INTERVAL_MS } from "./worker-defaults";

export interface WorkerMonitorOptions {
  store: WorkerStore;
  /** Time between sweeps in ms. Default `DEFAULT_MONITOR_INTERVAL_MS` (3_000). */
  intervalMs?: number;
  /** A worker silent for longer than this is lost, in ms. Default `DEFAULT_MISSED_AFTER_MS` (9_000, three beats). */
  missedAfterMs?: number;
  clock?: Clock;
  /** Where each lost worker is announced (`BUS_CHANNELS.workers`, type `lost`). Default none. */
  bus?: EventBus;
  logger?: EngineLogger;
  /**
   * Called once per lost worker, by the one server whose sweep marked it (e.g. to re-deliver the
   * worker's jobs). Awaited, one worker after another.
   */
  onLost?: (worker: WorkerRecord) => void | Promise<void>;
  /**
   * Run before each sweep — typically this process's own heartbeat, so that a stalled event loop
   * (which delays the beat and the sweep alike) never gets the server's own worker marked lost.
   */
  beforeSweep?: () => Promise<unknown>;
  /**
   * This process's store health. While the store is unreachable no heartbeat can be written (nor
   * read), so silence says nothing: no worker is marked lost until the store has been reachable
   * again for `outageGraceMs`. A failed sweep is reported to it. Default: sweeps regardless.
   */
  storeHealth?: StoreHealth;
  /**
   * After a store outage, how long the store must have been reachable before silent workers are
   * marked lost again, in ms. Default `missedAfterMs`: every worker gets the same time to be heard
   * from as it has at any other moment.
   */
  outageGraceMs?: number;
}

/**
 * The server's loop over the worker registry: every `intervalMs` it marks workers whose last
 * heartbeat is older than `missedAfterMs` as lost — except those heard `alive` on the bus within
 * `missedAfterMs` (their stored beats lag behind their writes, they are not gone) (`WorkerStore.markLost`, which hands each lost
 * worker to exactly one caller even with several servers), announces them and calls `onLost`.
 */
export class WorkerMonitor {
  readonly #options: WorkerMonitorOptions;
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #missedAfterMs: number;
  readonly #outageGraceMs: number;
  #isPausedForOutage = false;
  #cancelTimer: (() => void) | null = null;
  #sweeping: Promise<WorkerRecord[]> | null = null;
  #isRunning = false;
  /** When each worker was last heard `alive` on the bus (the monitor's clock). */
  readonly #heardOnBus = new Map<string, number>();
  #unsubscribeBus: Promise<() => Promise<void>> | null = null;

  constructor(options: WorkerMonitorOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#intervalMs = options.intervalMs ?? DEFAULT_MONITOR_INTERVAL_MS;
    this.#missedAfterMs = options.missedAfterMs ?? DEFAULT_MISSED_AFTER_MS;
    this.#outageGraceMs = options.outageGraceMs ?? this.#missedAfterMs;
  }

  start(): void {
    if (this.#isRunning) return;
    this.#isRunning = true;
    this.#unsubscribeBus =
      this.#options.bus
        ?.subscribe(BUS_CHANNELS.workers, (raw) => this.#hear(raw))
        .catch((error: unknown) => {
          this.#options.logger?.warn({ err: error }, "worker events not followed; the store alone decides");
          return async () => {};
        }) ?? null;
    this.#schedule();
  }

  #hear(raw: string): void {
    const message = parseWorkerBusMessage(raw);
    if (!message) return;
    if (message.type === "alive") this.#heardOnBus.set(message.workerId, this.#clock.now());
    else if (message.type === "stopped" || message.type === "lost") this.#heardOnBus.delete(message.workerId);
  }

  /** Workers heard `alive` on the bus within `missedAfterMs`: not lost, whatever their stored beat says. */
  #aliveOnBus(): string[] {
    const since = this.#clock.now() - this.#missedAfterMs;
    const alive: string[] = [];
    for (const [workerId, heardAtMs] of this.#heardOnBus) {
      if (heardAtMs >= since) alive.push(workerId);
      else this.#heardOnBus.delete(workerId);
    }
    return alive;
  }

  /** Stops sweeping; waits for a sweep in flight. */
  async stop(): Promise<void> {
    this.#isRunning = false;
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    const unsubscribe = await this.#unsubscribeBus;
    this.#unsubscribeBus = null;
    await unsubscribe?.().catch(() => undefined);
    await this.#sweeping?.catch(() => undefined);
  }

  /** Sweeps now (or joins the sweep in flight): the workers this call marked lost. Throws when the store fails. */
  sweep(): Promise<WorkerRecord[]> {
    this.#sweeping ??= this.#sweepOnce().finally(() => {
      this.#sweeping = null;
    });
    return this.#sweeping;
  }

  async #sweepOnce(): Promise<WorkerRecord[]> {
    const { beforeSweep, logger } = this.#options;
    if (beforeSweep) {
      await beforeSweep().catch((error: unknown) =>
        logger?.warn({ err: error }, "the step before the worker sweep failed; sweeping anyway"),
      );
    }
    if (this.#isPausedByOutage()) return [];
    const lost = await this.#options.store.markLost(
      this.#clock.now() - this.#missedAfterMs,
      this.#aliveOnBus(),
    );
    for (const worker of lost) {
      logger?.warn(
        {
          workerId: worker.id,
          hostname: worker.hostname,
          pid: worker.pid,
          silentForMs: this.#clock.now() - worker.heartbeatAtMs,
        },
        "worker lost: no heartbeat",
      );
      await this.#publish({ type: "lost", workerId: worker.id, atMs: this.#clock.now() });
      try {
        await this.#options.onLost?.(worker);
      } catch (error) {
        logger?.error({ workerId: worker.id, err: error }, "handling a lost worker failed");
      }
    }
    return lost;
  }

  /** True while the store is unreachable or back for less than the grace (logged at each change). */
  #isPausedByOutage(): boolean {
    const health = this.#options.storeHealth;
    const isPaused = health !== undefined && health.availableForMs() < this.#outageGraceMs;
    if (isPaused !== this.#isPausedForOutage) {
      this.#isPausedForOutage = isPaused;
      this.#options.logger?.warn(
        { outageGraceMs: this.#outageGraceMs },
        isPaused
          ? "lost-worker detection paused: the store is or was just unreachable, so heartbeats could not be written"
          : "lost-worker detection resumed",
      );
    }
    return isPaused;
  }

  #schedule(): void {
    if (!this.#isRunning) return;
    this.#cancelTimer = this.#clock.setTimer(() => {
      this.#cancelTimer = null;
      this.sweep()
        .catch((error: unknown) => {
          this.#options.storeHealth?.reportFailure(error);
          this.#options.logger?.warn({ err: error }, "worker sweep failed; trying again next interval");
        })
        .finally(() => this.#schedule());
    }, this.#intervalMs);
  }

  async #publish(message: TWorkerBusMessage): Promise<void> {
    await this.#options.bus
      ?.publish(BUS_CHANNELS.workers, JSON.stringify(message))
      .catch((error: unknown) =>
        this.#options.logger?.warn({ workerId: message.workerId, err: error }, "worker event not published"),
      );
  }
}
