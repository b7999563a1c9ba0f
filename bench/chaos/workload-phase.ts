// One phase of the workload as a trainer would drive it: a closed loop that keeps `outstanding`
// jobs in flight, submitting the next items (each with its idempotency key, retried with the same
// key after any failed call) as earlier ones finish, and a poll of the store — the record of truth
// — for each acknowledged job's state. It ends when every item is acknowledged and final, or at
// its deadline. While `continueWhile` holds, the items are submitted again (new keys) once all have
// been, so a fast cluster still has work in flight when the last fault strikes.
import { isTerminalStatus, type TJob } from "@raas/shared";
import type { ApiClient } from "./api-client";
import type { ObservedJob, PhaseResult } from "./chaos.types";
import type { StoreView } from "./store-view";
import type { WorkItem } from "./workload";

const SUBMIT_CHUNK = 8;
const POLL_MS = 1_000;
const RETRY_MS = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface WorkloadPhaseOptions {
  name: string;
  items: readonly WorkItem[];
  /** Prefix of every job key of the phase (keys are `<prefix>-<index>`). */
  keyPrefix: string;
  /** Jobs kept in flight (acknowledged, not yet final). */
  outstanding: number;
  api: ApiClient;
  store: StoreView;
  /** While true, submitting goes on past the last item, from the first again. Default never. */
  continueWhile?: () => boolean;
}

export class WorkloadPhase {
  readonly #jobs = new Map<string, ObservedJob>();
  #next = 0;
  #deadlineMs = Number.POSITIVE_INFINITY;
  #submitRetries = 0;
  #storePollFailures = 0;
  #startedAtMs = 0;

  constructor(private readonly options: WorkloadPhaseOptions) {}

  /** Acknowledged jobs not yet final in the store. */
  outstandingCount(): number {
    let count = 0;
    for (const job of this.#jobs.values()) if (!isTerminalStatus(job.status as TJob["status"])) count += 1;
    return count;
  }

  /** Finish times of the jobs the store holds as completed, so far. */
  completionTimes(): number[] {
    const times: number[] = [];
    for (const job of this.#jobs.values())
      if (job.status === "completed" && job.finishedAtMs !== null) times.push(job.finishedAtMs);
    return times;
  }

  isSubmitted(): boolean {
    return this.#next >= this.options.items.length && !(this.options.continueWhile?.() ?? false);
  }

  /** From now on the phase ends at `atMs` even if jobs are still not final. */
  setDeadline(atMs: number): void {
    this.#deadlineMs = atMs;
  }

  async run(): Promise<PhaseResult> {
    this.#startedAtMs = Date.now();
    let done = false;
    const finished = () => done || Date.now() > this.#deadlineMs;
    const submitting = this.#submitLoop(finished);
    while (!finished()) {
      await sleep(POLL_MS);
      await this.#poll();
      done = this.isSubmitted() && this.outstandingCount() === 0;
    }
    await submitting;
    // What the store says at the very end, not a second old (unless it cannot be read).
    await this.#poll();
    const jobs = [...this.#jobs.values()];
    const notFinalIds = jobs
      .filter((job) => !isTerminalStatus(job.status as TJob["status"]))
      .map((job) => job.id);
    const lastFinish = Math.max(...jobs.map((job) => job.finishedAtMs ?? 0));
    return {
      name: this.options.name,
      startedAtMs: this.#startedAtMs,
      endedAtMs: done ? lastFinish : this.#deadlineMs,
      jobs,
      notFinalIds,
      notSubmitted: Math.max(0, this.options.items.length - this.#next),
      submitRetries: this.#submitRetries,
      storePollFailures: this.#storePollFailures,
    };
  }

  async #submitLoop(finished: () => boolean): Promise<void> {
    const { items, keyPrefix, api } = this.options;
    while (!this.isSubmitted() && !finished()) {
      const room = this.options.outstanding - this.outstandingCount();
      if (room <= 0) {
        await sleep(100);
        continue;
      }
      const first = this.#next;
      const left = this.options.continueWhile?.() ? SUBMIT_CHUNK : items.length - first;
      const count = Math.min(room, SUBMIT_CHUNK, left);
      const chunk = Array.from({ length: count }, (_, i) => items[(first + i) % items.length] as WorkItem);
      const jobs = chunk.map((item, i) => ({
        kind: item.kind,
        jobKey: `${keyPrefix}-${first + i}`,
        payload: item.payload,
      }));
      try {
        const { results } = await api.post<{ results: Array<{ job: TJob }> }>("/api/v1/jobs/batch", { jobs });
        const at = Date.now();
        results.forEach(({ job }, i) => {
          const item = chunk[i] as WorkItem;
          this.#jobs.set(job.id, {
            id: job.id,
            key: jobs[i]?.jobKey ?? "",
            kind: item.kind,
            taskId: item.taskId,
            acknowledgedAtMs: at,
            status: job.status,
            finishedAtMs: job.finishedAtMs ?? null,
            updatedAtMs: null,
            failureKind: job.failure?.kind ?? null,
            reward: job.reward,
          });
        });
        this.#next = first + chunk.length;
      } catch {
        // The server restarting, the database away: the same keys go again (idempotent).
        this.#submitRetries += 1;
        await sleep(RETRY_MS);
      }
    }
  }

  async #poll(): Promise<void> {
    const open = [...this.#jobs.values()].filter((job) => !isTerminalStatus(job.status as TJob["status"]));
    try {
      for (const row of await this.options.store.jobs(open.map((job) => job.id))) {
        const job = this.#jobs.get(row.id);
        if (!job) continue;
        job.status = row.status;
        job.finishedAtMs = row.finishedAtMs;
        job.updatedAtMs = row.updatedAtMs;
        job.failureKind = row.failureKind;
        job.reward = row.reward;
      }
    } catch {
      this.#storePollFailures += 1;
    }
  }
}
