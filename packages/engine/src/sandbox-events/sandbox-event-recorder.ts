import type { TSandboxEvent } from "@raas/shared";
import type { EngineLogger } from "../engine.types";
import type { SandboxEventRecord, SandboxEventStore } from "../ports/sandbox-event-store.port";

export interface SandboxEventRecorderOptions {
  store: SandboxEventStore;
  /** Worker or host id stamped on every event (e.g. `node-3:4711`). Default null. */
  hostId?: string | null;
  /** Runtime name recorded with each `created` event (`bubblewrap`, `apptainer`, `local`). */
  runtime: string;
  logger?: EngineLogger;
  /** Longest an event waits before its batch is written, in ms. Default 250. */
  flushIntervalMs?: number;
  /** A batch is written at once when this many events wait. Default 500. */
  maxBatch?: number;
  /**
   * Events held while the store keeps failing; beyond this the oldest are dropped (counted in
   * `stats.dropped`, logged), so a dead database never grows the heap without bound. Default 50_000.
   */
  maxBuffered?: number;
}

export interface SandboxEventRecorderStats {
  /** Events handed to `record`. */
  recorded: number;
  /** Events the store accepted. */
  stored: number;
  /** Events dropped because the buffer was full while the store failed. */
  dropped: number;
  /** Batches the store refused (they are retried). */
  failedFlushes: number;
}

/**
 * Stores a sandbox runtime's lifecycle events in batches. `record` only appends to a buffer (it
 * runs inside the runtime's event callback, on the rollout's path); one write at a time drains
 * the buffer every `flushIntervalMs`, or at once when `maxBatch` events wait. A failed batch is
 * put back and retried with a back-off; events are never lost while the buffer has room.
 */
export class SandboxEventRecorder {
  readonly #options: Required<Omit<SandboxEventRecorderOptions, "logger">> & { logger?: EngineLogger };
  #buffer: SandboxEventRecord[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> | undefined;
  #retryDelayMs = 0;
  #closed = false;
  readonly #stats: SandboxEventRecorderStats = { recorded: 0, stored: 0, dropped: 0, failedFlushes: 0 };

  constructor(options: SandboxEventRecorderOptions) {
    this.#options = {
      hostId: null,
      flushIntervalMs: 250,
      maxBatch: 500,
      maxBuffered: 50_000,
      ...options,
    };
  }

  get stats(): SandboxEventRecorderStats {
    return { ...this.#stats };
  }

  /** Queues one event for storage. Never throws, never waits. */
  record(event: TSandboxEvent): void {
    if (this.#closed) return;
    this.#stats.recorded += 1;
    const detail =
      event.type === "created" ? { ...event.detail, runtime: this.#options.runtime } : event.detail;
    this.#buffer.push({ ...event, detail, hostId: this.#options.hostId });
    if (this.#buffer.length > this.#options.maxBuffered) this.#drop();
    if (this.#buffer.length >= this.#options.maxBatch && this.#retryDelayMs === 0) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#schedule(0);
    } else this.#schedule(this.#options.flushIntervalMs + this.#retryDelayMs);
  }

  /** Writes everything buffered so far (and what arrives meanwhile); resolves when stored or failed once. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#writing) await this.#writing;
    while (this.#buffer.length > 0) {
      const before = this.#stats.failedFlushes;
      await this.#write();
      if (this.#stats.failedFlushes > before) return;
    }
  }

  /** Stops taking events and writes what is buffered. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
    clearTimeout(this.#timer);
  }

  #schedule(delayMs: number): void {
    if (this.#timer !== undefined || this.#writing) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#write().then(() => {
        if (this.#buffer.length > 0) this.#schedule(this.#nextDelay());
      });
    }, delayMs);
    this.#timer.unref();
  }

  #nextDelay(): number {
    if (this.#retryDelayMs > 0) return this.#retryDelayMs;
    return this.#buffer.length >= this.#options.maxBatch ? 0 : this.#options.flushIntervalMs;
  }

  #write(): Promise<void> {
    if (this.#writing) return this.#writing;
    const batch = this.#buffer.splice(0, this.#options.maxBatch);
    if (batch.length === 0) return Promise.resolve();
    this.#writing = this.#options.store
      .appendEvents(batch)
      .then(
        () => {
          this.#stats.stored += batch.length;
          this.#retryDelayMs = 0;
        },
        (error: unknown) => {
          this.#stats.failedFlushes += 1;
          this.#buffer = [...batch, ...this.#buffer];
          if (this.#buffer.length > this.#options.maxBuffered) this.#drop();
          this.#retryDelayMs = Math.min(Math.max(this.#retryDelayMs * 2, 500), 30_000);
          this.#options.logger?.warn(
            { err: error, events: batch.length, retryInMs: this.#retryDelayMs },
            "storing sandbox events failed; retrying",
          );
        },
      )
      .finally(() => {
        this.#writing = undefined;
      });
    return this.#writing;
  }

  #drop(): void {
    const excess = this.#buffer.length - this.#options.maxBuffered;
    this.#buffer.splice(0, excess);
    this.#stats.dropped += excess;
    this.#options.logger?.warn(
      { dropped: excess, maxBuffered: this.#options.maxBuffered },
      "sandbox event buffer full while the store fails; dropped the oldest events",
    );
  }
}
