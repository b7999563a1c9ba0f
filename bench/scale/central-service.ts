import type { TCentralService } from "./scale-sim.types";

/**
 * A shared service on virtual time: requests travel half the round trip, wait their turn in FIFO
 * order behind earlier ones (each takes 1 / opsPerSec), and come back. Requests must be made in
 * non-decreasing time order, which an event loop guarantees. Counts what falls in the measured
 * window.
 */
export class CentralService {
  readonly #halfTripMs: number;
  readonly #serviceMs: number;
  #busyUntilMs = 0;
  #measuring = false;
  /** Operations that queued for capacity, in the window. */
  limitedOps = 0;
  /** Operations that only paid the round trip (store reads), in the window. */
  freeOps = 0;

  constructor(config: TCentralService) {
    this.#halfTripMs = config.latencyMs / 2;
    this.#serviceMs = Number.isFinite(config.opsPerSec) ? 1_000 / config.opsPerSec : 0;
  }

  /** Starts counting operations (the end of the warm-up). */
  startMeasuring(): void {
    this.#measuring = true;
  }

  stopMeasuring(): void {
    this.#measuring = false;
  }

  /** `ops` operations in one round trip that use capacity; returns when the answer is back. */
  request(nowMs: number, ops = 1): number {
    if (this.#measuring) this.limitedOps += ops;
    const start = Math.max(nowMs + this.#halfTripMs, this.#busyUntilMs);
    this.#busyUntilMs = start + ops * this.#serviceMs;
    return this.#busyUntilMs + this.#halfTripMs;
  }

  /** One operation that needs no capacity (a read): the round trip only. */
  read(nowMs: number): number {
    if (this.#measuring) this.freeOps += 1;
    return nowMs + 2 * this.#halfTripMs;
  }

  /** Fraction of capacity the window's limited operations used. */
  utilisation(windowMs: number): number {
    return (this.limitedOps * this.#serviceMs) / windowMs;
  }
}
