import type { RolloutEngine } from "@raas/engine";

/**
 * Why a worker takes no new job (its INIT pool at 0) though it runs:
 * - `draining`: an admin drained it (`workers.drain`) and has not resumed it;
 * - `sandboxes`: its sandboxes cannot start (suspected while a probe runs, or sick);
 * - `stopping`: it drains to stop (SIGTERM) and never takes work again.
 */
export type TInitHoldReason = "draining" | "sandboxes" | "stopping";

/** The part of the engine the gate drives. */
export type InitGateEngine = Pick<RolloutEngine, "stats" | "setConcurrency">;

/**
 * INIT slots for a set of hold reasons: the configured slots when no reason holds, else none.
 * Pure: the one rule every reason goes through.
 */
export function initCapacity(configuredSlots: number, reasons: ReadonlySet<TInitHoldReason>): number {
  return reasons.size === 0 ? configuredSlots : 0;
}

/**
 * The one gate of a worker's INIT pool. Drain and resume, a sick and a recovered sandbox host, a
 * stop: each adds or removes its own reason, and INIT gets its slots back only when no reason is
 * left — so a drained worker that recovers stays drained, and a sick worker that is resumed stays
 * closed until its sandboxes start again. The slots restored are those the pool had when the first
 * reason closed it (the configured ones, or what an admin set since).
 */
export class InitGate {
  readonly #engine: InitGateEngine;
  readonly #reasons = new Set<TInitHoldReason>();
  #slotsWhenOpen: number | null = null;

  constructor(engine: InitGateEngine) {
    this.#engine = engine;
  }

  /** Adds `reason`; the first reason closes INIT. Idempotent. */
  hold(reason: TInitHoldReason): void {
    if (this.#reasons.size === 0) this.#slotsWhenOpen = this.#engine.stats().stages.init.concurrency;
    this.#reasons.add(reason);
    this.#apply();
  }

  /** Removes `reason`; INIT reopens when it was the last one. Idempotent. */
  release(reason: TInitHoldReason): void {
    if (!this.#reasons.delete(reason)) return;
    this.#apply();
    if (this.#reasons.size === 0) this.#slotsWhenOpen = null;
  }

  /** The reasons holding INIT closed now; empty while it is open. */
  reasons(): TInitHoldReason[] {
    return [...this.#reasons];
  }

  get isOpen(): boolean {
    return this.#reasons.size === 0;
  }

  #apply(): void {
    const slots = initCapacity(this.#slotsWhenOpen ?? 0, this.#reasons);
    if (this.#engine.stats().stages.init.concurrency !== slots) this.#engine.setConcurrency("init", slots);
  }
}
