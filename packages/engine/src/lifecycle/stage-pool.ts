import type { TStage } from "@raas/shared";
import type { EngineLogger } from "../engine.types";
import type { JobQueue, Lease } from "../ports/job-queue.port";

export interface StagePoolOptions {
  stage: TStage;
  queue: JobQueue;
  concurrency: number;
  leaseMs: number;
  /** This process's worker id: the pool also takes the items addressed to it. */
  workerId: string;
  /** Images this worker holds, read at each reserve (`EngineOptions.heldImages`). Default none. */
  heldImages?: () => readonly string[];
  /** Runs one leased item to its end; must ack or nack the lease itself. Never rejects. */
  execute: (lease: Lease) => Promise<void>;
  logger?: EngineLogger;
}

/**
 * A pool of worker loops for one stage. Each loop leases the next item of its stage and runs it;
 * the number of loops follows `concurrency`, which may change at run time. Loops of different
 * stages never share slots, so a slow EVAL never holds a RUN slot.
 */
export class StagePool {
  readonly stage: TStage;
  readonly #options: StagePoolOptions;
  readonly #idle = new Map<number, AbortController>();
  #concurrency: number;
  /** Loops that count against `concurrency` (retired idle loops no longer do). */
  #loops = 0;
  /** Loops whose promise has not ended yet, retired or not. */
  #alive = 0;
  readonly #retired = new Set<number>();
  #active = 0;
  #nextLoopId = 0;
  #running = false;
  #drained: Array<() => void> = [];

  constructor(options: StagePoolOptions) {
    this.stage = options.stage;
    this.#options = options;
    this.#concurrency = options.concurrency;
  }

  get concurrency(): number {
    return this.#concurrency;
  }

  get active(): number {
    return this.#active;
  }

  start(): void {
    this.#running = true;
    this.#spawn();
  }

  setConcurrency(concurrency: number): void {
    this.#concurrency = Math.max(0, Math.floor(concurrency));
    if (!this.#running) return;
    // Shrink: stop idle loops first; busy loops exit when their current item ends.
    let excess = this.#loops - this.#concurrency;
    for (const [id, controller] of this.#idle) {
      if (excess <= 0) break;
      this.#idle.delete(id);
      this.#retired.add(id);
      this.#loops -= 1;
      controller.abort();
      excess -= 1;
    }
    this.#spawn();
  }

  /** Stops taking new items and resolves when running items have ended. */
  async stop(): Promise<void> {
    this.#running = false;
    for (const controller of this.#idle.values()) controller.abort();
    this.#idle.clear();
    if (this.#alive === 0) return;
    await new Promise<void>((resolve) => this.#drained.push(resolve));
  }

  #spawn(): void {
    while (this.#running && this.#loops < this.#concurrency) {
      this.#loops += 1;
      this.#alive += 1;
      void this.#loop(this.#nextLoopId++);
    }
  }

  async #loop(id: number): Promise<void> {
    try {
      while (this.#running && !this.#retired.has(id) && this.#loops <= this.#concurrency) {
        const controller = new AbortController();
        this.#idle.set(id, controller);
        const lease = await this.#options.queue.reserve(
          this.stage,
          this.#options.leaseMs,
          controller.signal,
          {
            workerId: this.#options.workerId,
            ...(this.#options.heldImages && { images: this.#options.heldImages() }),
          },
        );
        this.#idle.delete(id);
        if (!lease) break;
        this.#active += 1;
        try {
          await this.#options.execute(lease);
        } catch (error) {
          this.#options.logger?.error({ err: String(error), stage: this.stage }, "stage executor threw");
        } finally {
          this.#active -= 1;
        }
      }
    } finally {
      this.#idle.delete(id);
      if (!this.#retired.delete(id)) this.#loops -= 1;
      this.#alive -= 1;
      if (this.#alive === 0) for (const resolve of this.#drained.splice(0)) resolve();
    }
  }
}
