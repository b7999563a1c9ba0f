import type { SandboxSpec } from "@raas/engine";
import type { ManagedSandbox } from "../host/managed-sandbox";

/**
 * True when a spec asks for nothing that a sandbox started earlier with the runtime's
 * defaults (on the spec's image: one pool per image) cannot take on afterwards: files can be
 * written into it, but an environment, different limits or read-only binds can only be set at
 * start.
 */
export function isPoolable(spec: SandboxSpec): boolean {
  const isEmpty = (value: object | undefined) => value === undefined || Object.keys(value).length === 0;
  return (
    isEmpty(spec.env) &&
    isEmpty(spec.limits) &&
    (spec.readOnlyBinds === undefined || spec.readOnlyBinds.length === 0)
  );
}

/** How many sandboxes a {@link WarmPool} keeps ready. */
export type WarmPoolSizing =
  /** Always this many (filled by `fill`, refilled after every take). */
  | { kind: "fixed"; size: number }
  /**
   * None until `demand` says how many one group used; then that many (the largest demand since
   * the pool was last idle, at most `maxSize`), until nothing was taken or demanded for `idleMs`:
   * then the idle ones are closed and the pool waits for the next demand.
   */
  | { kind: "auto"; maxSize: number; idleMs: number };

/**
 * Sandboxes started ahead of demand, so `create` can hand one out without paying for a cold
 * start. Refills in the background after every take; failures to start are dropped (the next
 * take falls back to a cold start).
 */
export class WarmPool {
  readonly #sizing: WarmPoolSizing;
  readonly #start: () => Promise<ManagedSandbox>;
  readonly #idle: ManagedSandbox[] = [];
  readonly #starting = new Set<Promise<unknown>>();
  #target: number;
  #pendingRefill: ReturnType<typeof setImmediate> | undefined;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #lastUsedAt = 0;

  constructor(sizing: WarmPoolSizing, start: () => Promise<ManagedSandbox>) {
    this.#sizing = sizing;
    this.#start = start;
    this.#target = sizing.kind === "fixed" ? sizing.size : 0;
  }

  get idleCount(): number {
    return this.#idle.length;
  }

  /** How many sandboxes the pool keeps ready right now. */
  get targetSize(): number {
    return this.#target;
  }

  /** A ready sandbox, or undefined when the pool is empty. */
  take(): ManagedSandbox | undefined {
    this.#markUsed();
    let sandbox = this.#idle.shift();
    while (sandbox && sandbox.state !== "ready") sandbox = this.#idle.shift();
    // The refill's start (directories, cgroups, spawning bwrap) runs synchronously on this thread
    // up to its first wait: deferred, it overlaps the taker's next wait instead of delaying it.
    this.#deferRefill();
    return sandbox;
  }

  /**
   * A group used `size` sandboxes (auto sizing: the pool grows to keep that many ready, in the
   * background; a fixed pool ignores it).
   */
  demand(size: number): void {
    if (this.#sizing.kind !== "auto") return;
    this.#markUsed();
    const target = Math.min(this.#sizing.maxSize, Math.max(this.#target, size));
    if (target === this.#target) return;
    this.#target = target;
    this.#deferRefill();
  }

  refill(): void {
    while (this.#idle.length + this.#starting.size < this.#target) {
      const starting = this.#start().then(
        (sandbox) => {
          // The pool shrank (or was reset) while this one started.
          if (this.#idle.length >= this.#target) sandbox.close().catch(() => undefined);
          else this.#idle.push(sandbox);
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

  /**
   * Shutdown: no refill any more, nothing starting, every idle member closed; an auto pool
   * forgets what it learned (the next demand teaches it again).
   */
  async close(): Promise<void> {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    if (this.#sizing.kind === "auto") this.#target = 0;
    await this.settle();
    await Promise.all(this.#idle.splice(0).map((sandbox) => sandbox.close()));
  }

  /** Fills the pool and resolves once every member has started (or failed to). */
  async fill(): Promise<void> {
    this.refill();
    await Promise.all(this.#starting);
  }

  #deferRefill(): void {
    if (this.#target === 0) return;
    this.#pendingRefill ??= setImmediate(() => {
      this.#pendingRefill = undefined;
      this.refill();
    });
  }

  #markUsed(): void {
    if (this.#sizing.kind !== "auto") return;
    this.#lastUsedAt = performance.now();
    // One timer at a time: when it fires it checks how long the pool has really been idle.
    if (!this.#idleTimer) this.#armIdleTimer(this.#sizing.idleMs);
  }

  #armIdleTimer(ms: number): void {
    this.#idleTimer = setTimeout(() => this.#onIdleTimer(), ms);
    this.#idleTimer.unref();
  }

  /** Empties an auto pool nobody used for `idleMs`; else checks again when that will be due. */
  #onIdleTimer(): void {
    this.#idleTimer = undefined;
    if (this.#sizing.kind !== "auto") return;
    const idleForMs = performance.now() - this.#lastUsedAt;
    if (idleForMs < this.#sizing.idleMs) {
      this.#armIdleTimer(this.#sizing.idleMs - idleForMs);
      return;
    }
    this.#target = 0;
    for (const sandbox of this.#idle.splice(0)) sandbox.close().catch(() => undefined);
  }
}
