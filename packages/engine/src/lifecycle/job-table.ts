import { isTerminalStatus } from "@raas/shared";
import type { JobRecord } from "../ports/job-record.types";
import type { LiveJob } from "./live-job";

/**
 * The jobs this engine knows in memory: `live` ones it is moving (or submitted and has not seen
 * move elsewhere), and the latest stored record seen of others — finished here, or reported by
 * another process through the bus. The bus delivers at most once, so a record of a job another
 * process moves may be stale: only a terminal record (final once stored) answers for the store;
 * reads of unfinished jobs go to the store, and `unsettledIds` names what a bus loss may have left
 * stale.
 */
export class JobTable {
  readonly live = new Map<string, LiveJob>();
  readonly #seen = new Map<string, { record: JobRecord; version: number }>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Records a job's stored state at `version`, unless a newer one was seen already. */
  remember(record: JobRecord, version: number): void {
    const known = this.#seen.get(record.id);
    if (known && known.version > version) return;
    this.#seen.delete(record.id);
    this.#seen.set(record.id, { record, version });
    if (this.#seen.size > this.#capacity) {
      const oldest = this.#seen.keys().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
  }

  /**
   * The job's terminal record, once stored: a finished job never changes again, so this answers
   * for the store. Undefined for a job not known to be finished.
   */
  settled(id: string): JobRecord | undefined {
    const record = this.#seen.get(id)?.record;
    return record && isTerminalStatus(record.status) ? record : undefined;
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
   * Jobs known unfinished that no stage of this engine is running: their state changes in other
   * processes, reported through the bus — after a bus loss their records may be stale.
   */
  unsettledIds(): string[] {
    const ids = new Set<string>();
    for (const [id, live] of this.live) if (!live.controller) ids.add(id);
    for (const [id, { record }] of this.#seen) if (!isTerminalStatus(record.status)) ids.add(id);
    return [...ids];
  }

  /** True when the job is known to be terminal (its live copy or its latest stored record). */
  isFinished(id: string): boolean {
    const record = this.live.get(id)?.record ?? this.#seen.get(id)?.record;
    return record !== undefined && isTerminalStatus(record.status);
  }
}
