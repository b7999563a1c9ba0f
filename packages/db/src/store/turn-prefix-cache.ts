import type { TTurn } from "@raas/shared";
import type { PreviousTurnIds } from "../codec/prompt-delta-codec";

/** Jobs whose last written turn is remembered; the oldest is forgotten first. */
const DEFAULT_MAX_JOBS = 4_096;

/**
 * The last turn this process wrote per job, so the next turn of that job can be stored as a
 * delta against it (`prompt-delta-codec.ts`). A job missing here (another process wrote its
 * previous turn, or it was forgotten) just stores its next prompt whole. Bounded: only jobs in
 * RUN write turns.
 */
export class TurnPrefixCache {
  readonly #maxJobs: number;
  readonly #last = new Map<string, TTurn>();

  constructor(maxJobs = DEFAULT_MAX_JOBS) {
    this.#maxJobs = maxJobs;
  }

  /** The turn of `jobId` with index `index - 1`, if that is the one remembered. */
  previousOf(jobId: string, index: number): PreviousTurnIds | undefined {
    const turn = this.#last.get(jobId);
    return turn && turn.index === index - 1 ? turn : undefined;
  }

  /** Remembers the highest-index turn of each job among `turns` (after they were stored). */
  remember(turns: readonly TTurn[]): void {
    for (const turn of turns) {
      const known = this.#last.get(turn.jobId);
      if (known && known.index > turn.index) continue;
      this.#last.delete(turn.jobId);
      this.#last.set(turn.jobId, turn);
    }
    while (this.#last.size > this.#maxJobs) {
      const oldest = this.#last.keys().next().value as string;
      this.#last.delete(oldest);
    }
  }

  /** Forgets a job (its trajectory was deleted or archived). */
  forget(jobId: string): void {
    this.#last.delete(jobId);
  }
}
