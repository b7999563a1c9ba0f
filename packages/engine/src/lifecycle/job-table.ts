import { isTerminalStatus } from "@raas/shared";
import type { JobRecord } from "../ports/job-record.types";
import type { LiveJob } from "./live-job";

/**
 * The jobs this engine knows in memory: `live` ones it is moving (or submitted and has not seen
 * move elsewhere), and the latest record seen of others — finished here, or reported by another
 * process through the bus — so reads right after a change never miss it.
 */
export class JobTable {
  readonly live = new Map<string, LiveJob>();
  readonly #seen = new Map<string, { record: JobRecord; version: number }>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Records a job's state at `version`, unless a newer one was seen already. */
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

  /** The freshest record this engine holds: its live copy, else the latest seen. */
  get(id: string): JobRecord | undefined {
    return this.live.get(id)?.record ?? this.#seen.get(id)?.record;
  }

  /** The version of the latest record seen (from any process). */
  seenVersion(id: string): number | undefined {
    return this.#seen.get(id)?.version;
  }

  /** True when the job is known to be terminal. */
  isFinished(id: string): boolean {
    const record = this.get(id);
    return record !== undefined && isTerminalStatus(record.status);
  }
}
