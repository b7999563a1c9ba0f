import type { EngineLogger } from "../engine.types";
import { type Clock, systemClock } from "../ports/clock.port";
import { isNetworkError } from "./network-error";

/** What one process knows about its store's reachability. */
export interface StoreHealthState {
  /** False from the first connection failure until a connection succeeds again. */
  available: boolean;
  /** The failure that made it unavailable, for operators; null while available. */
  reason: string | null;
  /** When `available` last changed (the tracker's creation before any change), epoch ms. */
  sinceMs: number;
  /** Outages begun since the process started. */
  outages: number;
  /** Time the store was unavailable since the process started, the current outage included, in ms. */
  unavailableMs: number;
  /** Connection-level failures seen (lost connections, refused connects, failed round trips). */
  connectionErrors: number;
}

export interface StoreHealthOptions {
  clock?: Clock;
  logger?: EngineLogger;
  /**
   * True when an error means the store cannot be reached (as opposed to a bad statement or a
   * constraint). Default: Node's network error codes. The database adapter knows its driver's
   * errors better (`isDatabaseUnavailableError` in `@raas/db`).
   */
  isConnectionError?: (error: unknown) => boolean;
  /** While unavailable, how often the probe (`probeWith`) asks the store, in ms. Default 1_000. */
  probeIntervalMs?: number;
}

/**
 * The one place a process learns whether its store is reachable. The database client reports
 * every connection it opens and every connection it loses; retry loops report the failures they
 * see. Readers — `/health`, metrics, the worker monitor (which must not count heartbeats that
 * could not be written while the store was down), heartbeats that beat again once it is back —
 * ask here instead of each guessing from its own errors.
 */
export class StoreHealth {
  readonly #clock: Clock;
  readonly #logger: EngineLogger | undefined;
  readonly #isConnectionError: (error: unknown) => boolean;
  readonly #listeners = new Set<(state: StoreHealthState) => void>();
  #available = true;
  #reason: string | null = null;
  #sinceMs: number;
  #outages = 0;
  #finishedOutagesMs = 0;
  #connectionErrors = 0;
  readonly #probeIntervalMs: number;
  #probe: (() => Promise<unknown>) | null = null;
  #cancelProbe: (() => void) | null = null;
  #isClosed = false;

  constructor(options: StoreHealthOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#probeIntervalMs = options.probeIntervalMs ?? 1_000;
    this.#logger = options.logger;
    this.#isConnectionError = options.isConnectionError ?? isNetworkError;
    this.#sinceMs = this.#clock.now();
  }

  get isAvailable(): boolean {
    return this.#available;
  }

  /** True when `error` means the store cannot be reached (see `StoreHealthOptions.isConnectionError`). */
  isConnectionError(error: unknown): boolean {
    return this.#isConnectionError(error);
  }

  /**
   * Time since the store became available again, in ms: 0 while it is unavailable, Infinity when
   * it never was unavailable in this process.
   */
  availableForMs(): number {
    if (!this.#available) return 0;
    return this.#outages === 0 ? Number.POSITIVE_INFINITY : this.#clock.now() - this.#sinceMs;
  }

  state(): StoreHealthState {
    const current = this.#available ? 0 : this.#clock.now() - this.#sinceMs;
    return {
      available: this.#available,
      reason: this.#reason,
      sinceMs: this.#sinceMs,
      outages: this.#outages,
      unavailableMs: this.#finishedOutagesMs + current,
      connectionErrors: this.#connectionErrors,
    };
  }

  /**
   * A cheap round trip (`SELECT 1`) run every `probeIntervalMs` while the store is unavailable:
   * its success ends the outage even in a process that has nothing else to ask the store (the
   * worker monitor, paused, asks nothing).
   */
  probeWith(probe: () => Promise<unknown>): void {
    this.#probe = probe;
    this.#scheduleProbe();
  }

  /** Stops probing (the store is being closed). */
  close(): void {
    this.#isClosed = true;
    this.#cancelProbe?.();
    this.#cancelProbe = null;
  }

  /** A connection opened or a round trip succeeded: the store is reachable. */
  reportReachable(): void {
    if (this.#available) return;
    const now = this.#clock.now();
    const outageMs = now - this.#sinceMs;
    this.#finishedOutagesMs += outageMs;
    this.#available = true;
    this.#reason = null;
    this.#sinceMs = now;
    this.#logger?.warn({ outageMs }, "store reachable again");
    this.#emit();
  }

  /**
   * An operation on the store failed. Returns true when the failure was a connection failure
   * (then the store counts as unavailable until a connection succeeds); other errors (a bad
   * statement, a constraint) change nothing.
   */
  reportFailure(error: unknown): boolean {
    if (!this.#isConnectionError(error)) return false;
    this.#connectionErrors += 1;
    if (!this.#available) return true;
    this.#available = false;
    this.#reason = `store unreachable: ${messageOf(error)}`;
    this.#sinceMs = this.#clock.now();
    this.#outages += 1;
    // A warning: the outage is being ridden out (writes retried with back-off, nothing dropped).
    // What gives up on the store (a wait that times out) reports that as its own error.
    this.#logger?.warn(
      { err: messageOf(error) },
      "store unreachable: writes are held and retried, jobs and sandboxes kept until it is back",
    );
    this.#emit();
    this.#scheduleProbe();
    return true;
  }

  /** Calls `listener` at each change of availability; returns the unsubscribe. */
  onChange(listener: (state: StoreHealthState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #scheduleProbe(): void {
    const probe = this.#probe;
    if (this.#isClosed || this.#available || !probe || this.#cancelProbe) return;
    this.#cancelProbe = this.#clock.setTimer(() => {
      probe()
        .then(
          () => this.reportReachable(),
          (error: unknown) => this.reportFailure(error),
        )
        .finally(() => {
          this.#cancelProbe = null;
          this.#scheduleProbe();
        });
    }, this.#probeIntervalMs);
  }

  #emit(): void {
    const state = this.state();
    for (const listener of this.#listeners) {
      try {
        listener(state);
      } catch (error) {
        this.#logger?.error({ err: messageOf(error) }, "a store health listener threw");
      }
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
