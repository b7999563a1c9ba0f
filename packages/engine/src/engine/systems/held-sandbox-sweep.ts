import { isTerminalStatus } from "@raas/shared";
import { DEFAULT_HELD_SANDBOX_SWEEP_MS } from "../../engine-defaults";
import type { EngineContext } from "../engine-context";
import type { TransitionSystem } from "./transition-system";

/**
 * Closes what this process holds for jobs that ended elsewhere. A cancel made by another process
 * reaches the holder through the bus; when that message is lost (a bus restart), the sandbox held
 * between INIT and RUN would wait forever, since its queue item went with the cancel. While
 * anything is held, the store is asked every `everyMs` about the held jobs: a job stored as
 * finished has its sandbox closed and this engine's stale copy dropped. A finished job never
 * runs again, so acting on it needs no fresher view than the store's.
 */
export class HeldSandboxSweep {
  readonly #ctx: EngineContext;
  readonly #moves: TransitionSystem;
  readonly #everyMs: number;
  #cancelTimer: (() => void) | null = null;

  constructor(ctx: EngineContext, moves: TransitionSystem, everyMs = DEFAULT_HELD_SANDBOX_SWEEP_MS) {
    this.#ctx = ctx;
    this.#moves = moves;
    this.#everyMs = everyMs;
  }

  /** Schedules the next sweep, unless one is scheduled or nothing is held. */
  arm(): void {
    if (this.#cancelTimer || this.#ctx.sandboxes.size === 0) return;
    this.#cancelTimer = this.#ctx.clock.setTimer(() => {
      void this.#sweep().finally(() => {
        this.#cancelTimer = null;
        this.arm();
      });
    }, this.#everyMs);
  }

  async #sweep(): Promise<void> {
    const { sandboxes, store, jobs, logger } = this.#ctx;
    for (const { sandboxId, jobId } of sandboxes.entries()) {
      let stored: Awaited<ReturnType<typeof store.readJob>>;
      try {
        stored = await store.readJob(jobId);
      } catch (error) {
        logger?.warn({ err: String(error) }, "checking held sandboxes against the store failed");
        return;
      }
      if (!stored || !isTerminalStatus(stored.record.status)) continue;
      const live = jobs.live.get(jobId);
      if (live && !isTerminalStatus(live.record.status)) {
        this.#moves.supersede(live, `job ${jobId} ended in another process; closing its sandbox`);
      }
      for (const error of await sandboxes.close(sandboxId)) {
        logger?.warn({ jobId, err: String(error) }, "closing a held sandbox failed");
      }
    }
  }
}
