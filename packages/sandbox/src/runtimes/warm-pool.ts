import type { SandboxSpec } from "@raas/engine";
import type { ManagedSandbox } from "../host/managed-sandbox";

/**
 * True when a spec asks for nothing that a sandbox started earlier with the runtime's
 * defaults cannot take on afterwards: files can be written into it, but an image, an
 * environment or different limits can only be set at start.
 */
export function isPoolable(spec: SandboxSpec): boolean {
  const isEmpty = (value: object | undefined) => value === undefined || Object.keys(value).length === 0;
  return spec.image === undefined && isEmpty(spec.env) && isEmpty(spec.limits);
}

/**
 * Sandboxes started ahead of demand, so `create` can hand one out without paying for a cold
 * start. Refills in the background after every take; failures to start are dropped (the next
 * take falls back to a cold start).
 */
export class WarmPool {
  readonly #size: number;
  readonly #start: () => Promise<ManagedSandbox>;
  readonly #idle: ManagedSandbox[] = [];
  readonly #starting = new Set<Promise<unknown>>();
  #pendingRefill: ReturnType<typeof setImmediate> | undefined;

  constructor(size: number, start: () => Promise<ManagedSandbox>) {
    this.#size = size;
    this.#start = start;
  }

  get idleCount(): number {
    return this.#idle.length;
  }

  /** A ready sandbox, or undefined when the pool is empty. */
  take(): ManagedSandbox | undefined {
    let sandbox = this.#idle.shift();
    while (sandbox && sandbox.state !== "ready") sandbox = this.#idle.shift();
    // The refill's start (directories, cgroups, spawning bwrap) runs synchronously on this thread
    // up to its first wait: deferred, it overlaps the taker's next wait instead of delaying it.
    this.#pendingRefill ??= setImmediate(() => {
      this.#pendingRefill = undefined;
      this.refill();
    });
    return sandbox;
  }

  refill(): void {
    while (this.#idle.length + this.#starting.size < this.#size) {
      const starting = this.#start().then(
        (sandbox) => {
          this.#idle.push(sandbox);
        },
        () => undefined,
      );
      this.#starting.add(starting);
      void starting.finally(() => this.#starting.delete(starting));
    }
  }

  /** Drops a deferred refill and resolves once no member is still starting (so a shutdown can close them all). */
  async settle(): Promise<void> {
    // A refill deferred by `take` would start sandboxes after a shutdown closed them all.
    if (this.#pendingRefill) clearImmediate(this.#pendingRefill);
    this.#pendingRefill = undefined;
    await Promise.all(this.#starting);
  }

  /** Fills the pool and resolves once every member has started (or failed to). */
  async fill(): Promise<void> {
    this.refill();
    await Promise.all(this.#starting);
  }
}
