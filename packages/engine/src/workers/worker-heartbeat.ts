import type { TStage } from "@raas/shared";
import type { EngineLogger } from "../engine.types";
import { type Clock, systemClock } from "../ports/clock.port";
import { BUS_CHANNELS, type EventBus } from "../ports/event-bus.port";
import type { BackendView } from "../ports/inference-pool.port";
import type {
  TWorkerStatus,
  WorkerPoolOccupancy,
  WorkerRecord,
  WorkerStore,
} from "../ports/worker-store.port";
import type { StoreHealth } from "../store-health/store-health";
import type { ImagePrefetcher } from "./image-prefetcher";
import type { TWorkerBusMessage } from "./worker-bus-message";
import { DEFAULT_HEARTBEAT_INTERVAL_MS } from "./worker-defaults";

export interface WorkerHeartbeatOptions {
  store: WorkerStore;
  /** Unique per process start, e.g. `<hostname>:<pid>`. */
  workerId: string;
  hostname: string;
  pid: number;
  /** Node labels a job can require (e.g. `apptainer`). Default none. */
  labels?: readonly string[];
  /** Occupancy of the stage pools this worker runs, read at registration and at every beat. */
  pools: () => Partial<Record<TStage, WorkerPoolOccupancy>>;
  /** Live sandboxes, read at every beat. Default 0. */
  sandboxes?: () => number;
  /**
   * This process's view of its inference backends (`listBackends()`), read at every beat and
   * stored with it, so the control plane can show the load and counters of backends it does not
   * route to itself. Default none reported.
   */
  backends?: () => BackendView[];
  /**
   * Why this worker takes no new work though it runs (its sandboxes fail to start), read at every
   * beat and stored with it for `workers.list`; null while healthy. Default: never reported.
   */
  unhealthyReason?: () => string | null;
  /**
   * This worker's image cache: its report goes out with every beat, and the prefetch requests read
   * back with the stored record are handed to it. Default: none reported.
   */
  images?: ImagePrefetcher;
  /** Time between beats in ms. Default `DEFAULT_HEARTBEAT_INTERVAL_MS` (3_000). */
  intervalMs?: number;
  clock?: Clock;
  /** Where `registered` and `stopped` are announced (`BUS_CHANNELS.workers`). Default none. */
  bus?: EventBus;
  logger?: EngineLogger;
  /**
   * This process's store health: a failed beat is reported to it, and when the store is back
   * after an outage the worker beats at once (its record is fresh before any monitor looks).
   */
  storeHealth?: StoreHealth;
  /** The stored record turned `draining` (an admin drained this worker): finish current work, take none. */
  onDrain?: () => void | Promise<void>;
  /** A draining worker was resumed: take work again. */
  onResume?: () => void | Promise<void>;
  /**
   * The store says this worker was marked lost (it was silent too long; its jobs were handed
   * elsewhere). Called once; a lost record is never revived by a heartbeat.
   */
  onLost?: (worker: WorkerRecord) => void | Promise<void>;
}

/**
 * Registers this process as a worker and heartbeats with its pools' occupancy and sandbox count,
 * one beat at a time (the next is scheduled when the last one finished). Each beat reads the
 * stored record back: that is how a worker learns it was drained, resumed or given up as lost.
 */
export class WorkerHeartbeat {
  readonly #options: WorkerHeartbeatOptions;
  readonly #clock: Clock;
  readonly #intervalMs: number;
  #status: TWorkerStatus | null = null;
  #cancelTimer: (() => void) | null = null;
  #cancelAliveTimer: (() => void) | null = null;
  #beating: Promise<WorkerRecord | null> | null = null;
  #isStopped = false;
  #unsubscribeHealth: (() => void) | null = null;

  constructor(options: WorkerHeartbeatOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#intervalMs = options.intervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS;
  }

  get workerId(): string {
    return this.#options.workerId;
  }

  /** The status of the stored record at the last beat; null before `start()`. */
  get status(): TWorkerStatus | null {
    return this.#status;
  }

  /** Registers the worker (as `active`) and starts beating every `intervalMs`. */
  async start(): Promise<void> {
    await this.#register();
    await this.#publish("registered");
    this.#schedule();
    this.#scheduleAlive();
    this.#unsubscribeHealth =
      this.#options.storeHealth?.onChange((state) => {
        if (state.available) this.#beatAfterOutage();
      }) ?? null;
  }

  /** Beats now (or joins the beat in flight); resolves to the stored record. Throws when the store fails. */
  beat(): Promise<WorkerRecord | null> {
    this.#beating ??= this.#beatOnce().finally(() => {
      this.#beating = null;
    });
    return this.#beating;
  }

  /** Stops beating and marks the worker `stopped`. Idempotent. */
  async stop(): Promise<void> {
    if (this.#isStopped) return;
    this.#isStopped = true;
    this.#unsubscribeHealth?.();
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    this.#cancelAliveTimer?.();
    this.#cancelAliveTimer = null;
    await this.#beating?.catch(() => undefined);
    await this.#options.store.markStopped(this.workerId, this.#clock.now());
    this.#status = "stopped";
    await this.#publish("stopped");
  }

  async #register(): Promise<void> {
    const now = this.#clock.now();
    const { workerId, hostname, pid, labels = [], store } = this.#options;
    await store.register({
      id: workerId,
      hostname,
      pid,
      labels: [...labels],
      pools: this.#options.pools(),
      sandboxes: this.#options.sandboxes?.() ?? 0,
      backends: this.#backends() ?? [],
      startedAtMs: now,
      heartbeatAtMs: now,
    });
    this.#status = "active";
  }

  async #beatOnce(): Promise<WorkerRecord | null> {
    const backends = this.#backends();
    const unhealthyReason = this.#options.unhealthyReason?.();
    // A cache that cannot be read (its directory gone) never stops the beat itself.
    const images = await this.#options.images?.report().catch(() => undefined);
    const record = await this.#options.store.heartbeat(this.workerId, {
      ...(images && { images }),
      pools: this.#options.pools(),
      sandboxes: this.#options.sandboxes?.() ?? 0,
      ...(backends && { backends }),
      ...(unhealthyReason !== undefined && { unhealthyReason }),
      atMs: this.#clock.now(),
    });
    if (this.#isStopped) return record;
    if (record === null) {
      // The record is gone (a wiped store): this process is alive, so it registers again.
      this.#options.logger?.warn({ workerId: this.workerId }, "worker record missing; registering again");
      await this.#register();
      return this.#options.store.get(this.workerId);
    }
    this.#options.images?.follow(record.prefetchRequests);
    await this.#follow(record);
    return record;
  }

  #backends(): BackendView[] | undefined {
    return this.#options.backends?.();
  }

  /** Acts on a status change an admin or the server's monitor made to the stored record. */
  async #follow(record: WorkerRecord): Promise<void> {
    const previous = this.#status;
    this.#status = record.status;
    if (record.status === previous) return;
    if (record.status === "draining") await this.#call("onDrain", () => this.#options.onDrain?.());
    else if (record.status === "active" && previous === "draining") {
      await this.#call("onResume", () => this.#options.onResume?.());
    } else if (record.status === "lost") {
      this.#options.logger?.error(
        { workerId: this.workerId, heartbeatAtMs: record.heartbeatAtMs },
        "this worker was marked lost (its heartbeats stopped reaching the store); its jobs were handed elsewhere",
      );
      await this.#call("onLost", () => this.#options.onLost?.(record));
    }
  }

  async #call(name: string, fn: () => void | Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (error) {
      this.#options.logger?.error({ workerId: this.workerId, err: error }, `worker ${name} callback failed`);
    }
  }

  #schedule(): void {
    if (this.#isStopped) return;
    this.#cancelTimer = this.#clock.setTimer(() => {
      this.#cancelTimer = null;
      this.beat()
        .catch((error: unknown) => {
          this.#options.storeHealth?.reportFailure(error);
          this.#options.logger?.warn(
            { workerId: this.workerId, err: error },
            "worker heartbeat failed; trying again next interval",
          );
        })
        .finally(() => this.#schedule());
    }, this.#intervalMs);
  }

  /**
   * Every interval, `alive` on the bus, on its own timer: the stored beat waits for its write (one
   * at a time), which after a database outage can queue behind the backlog for longer than the
   * monitor's `missedAfterMs`. A lost message says nothing; nothing is logged for one.
   */
  #scheduleAlive(): void {
    const { bus } = this.#options;
    if (!bus || this.#isStopped) return;
    this.#cancelAliveTimer = this.#clock.setTimer(() => {
      this.#cancelAliveTimer = null;
      if (this.#isStopped) return;
      const message: TWorkerBusMessage = { type: "alive", workerId: this.workerId, atMs: this.#clock.now() };
      bus.publish(BUS_CHANNELS.workers, JSON.stringify(message)).catch(() => undefined);
      this.#scheduleAlive();
    }, this.#intervalMs);
  }

  /** The store is back: beat now rather than at the next interval, so the record is fresh. */
  #beatAfterOutage(): void {
    if (this.#isStopped) return;
    this.beat().catch((error: unknown) => {
      this.#options.storeHealth?.reportFailure(error);
      this.#options.logger?.warn(
        { workerId: this.workerId, err: error },
        "heartbeat after a store outage failed",
      );
    });
  }

  async #publish(type: TWorkerBusMessage["type"]): Promise<void> {
    const { bus } = this.#options;
    if (!bus) return;
    const message: TWorkerBusMessage = { type, workerId: this.workerId, atMs: this.#clock.now() };
    await bus
      .publish(BUS_CHANNELS.workers, JSON.stringify(message))
      .catch((error: unknown) =>
        this.#options.logger?.warn({ workerId: this.workerId, err: error }, "worker event not published"),
      );
  }
}
