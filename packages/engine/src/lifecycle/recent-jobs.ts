import type { JobRecord } from "../ports/job-record.types";

/** The most recently finished jobs, kept so reads right after completion never miss. */
export class RecentJobs {
  readonly #jobs = new Map<string, JobRecord>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  add(job: JobRecord): void {
    this.#jobs.delete(job.id);
    this.#jobs.set(job.id, job);
    if (this.#jobs.size > this.#capacity) {
      const oldest = this.#jobs.keys().next().value;
      if (oldest !== undefined) this.#jobs.delete(oldest);
    }
  }

  get(id: string): JobRecord | undefined {
    return this.#jobs.get(id);
  }
}
