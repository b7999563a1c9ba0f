import type { ManagedSandbox } from "../host/managed-sandbox";
import { WarmPool, type WarmPoolSizing } from "./warm-pool";

/** The pool key of the host's own root filesystem (no `SandboxSpec.image`). */
const HOST = "";

/**
 * One {@link WarmPool} per image (and one for the host's root filesystem), each with the same
 * sizing: a sandbox started on one image is only ever handed to a spec of that image. An image's
 * pool is made when a spec of it first takes or demands (that first create starts cold).
 */
export class WarmPools {
  readonly #sizing: WarmPoolSizing;
  readonly #start: (image: string | undefined) => Promise<ManagedSandbox>;
  readonly #pools = new Map<string, WarmPool>();

  constructor(sizing: WarmPoolSizing, start: (image: string | undefined) => Promise<ManagedSandbox>) {
    this.#sizing = sizing;
    this.#start = start;
    this.#poolFor(undefined);
  }

  /** A ready sandbox on `image` (undefined: the host's), or undefined when its pool is empty. */
  take(image: string | undefined): ManagedSandbox | undefined {
    return this.#poolFor(image).take();
  }

  /** A group on `image` used `size` sandboxes (see `WarmPool.demand`). */
  demand(image: string | undefined, size: number): void {
    this.#poolFor(image).demand(size);
  }

  /** Sizes summed over every image's pool. */
  get totals(): { targetSize: number; idle: number } {
    let targetSize = 0;
    let idle = 0;
    for (const pool of this.#pools.values()) {
      targetSize += pool.targetSize;
      idle += pool.idleCount;
    }
    return { targetSize, idle };
  }

  /** Ready sandboxes per image (`""` for the host's root filesystem). */
  idleByImage(): Map<string, number> {
    return new Map([...this.#pools].map(([image, pool]) => [image, pool.idleCount]));
  }

  /** Fills the host image's pool (a fixed size); image pools fill once their image is used. */
  fill(): Promise<void> {
    return this.#poolFor(undefined).fill();
  }

  async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((pool) => pool.close()));
  }

  #poolFor(image: string | undefined): WarmPool {
    const key = image ?? HOST;
    let pool = this.#pools.get(key);
    if (!pool) {
      pool = new WarmPool(this.#sizing, () => this.#start(image));
      this.#pools.set(key, pool);
    }
    return pool;
  }
}
