import { isTerminalStatus } from "@raas/shared";
import type { LiveJob } from "./live-job";

/** What this engine saw of a job's stored state: its version, and whether that version ended it. */
interface SeenVersion {
  version: number;
  isEnd: boolean;
}

/**
 * This engine's bookkeeping of jobs — never the answer to what state a job is in: the store is
 * (reads of a job's state flush this engine's writes and read it).
 *
 * - `live`: jobs this engine is moving — the base of its next compare-and-set, the running
 *   stage's abort handle, the outputs handed between stages. A copy another process moved on is
 *   caught by the store (its compare-and-set loses, or a read finds a newer version) and dropped.
 * - the newest stored version seen of each job (no record), so each change is delivered to
 *   listeners once and never goes back in time, and each end is counted once; `unsettledIds`
 *   names the jobs a lost bus message may have left unheard.
 */
export class JobTable {
  readonly live = new Map<string, LiveJob>();
  readonly #seen = new Map<string, SeenVersion>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Notes that the store holds job `id` at `version` (`isEnd`: a terminal state), unless a newer one was seen. */
  remember(id: string, version: number, isEnd: boolean): void {
    const known = this.#seen.get(id);
    if (known && known.version > version) return;
    this.#seen.delete(id);
    this.#seen.set(id, { version, isEnd });
    if (this.#seen.size > this.#capacity) {
      const oldest = this.#seen.keys().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
  }

  /**
   * The newest stored version this engine knows of a job: its live copy's (which runs ahead of
   * the store by this engine's pending writes), else the latest seen; undefined for an unknown job.
   */
  knownVersion(id: string): number | undefined {
    const live = this.live.get(id);
    const seen = this.#seen.get(id)?.version;
    if (live === undefined) return seen;
    return seen === undefined ? live.version : Math.max(live.version, seen);
  }

  /**
   * Jobs seen unfinished that no stage of this engine is running: their state changes in other
   * processes, reported through the bus — after a bus loss those changes may be unheard.
   */
  unsettledIds(): string[] {
    const ids = new Set<string>();
    for (const [id, live] of this.live) if (!live.controller) ids.add(id);
    for (const [id, { isEnd }] of this.#seen) if (!isEnd) ids.add(id);
    return [...ids];
  }

  /** True when this engine has seen the job end (stored terminal, or its live copy moved to an end). */
  hasSeenEnd(id: string): boolean {
    const live = this.live.get(id)?.record;
    if (live && isTerminalStatus(live.status)) return true;
    return this.#seen.get(id)?.isEnd ?? false;
  }
}
