import {
  isTerminalStatus,
  type TJobListQuery,
  type TSandboxEvent,
  type TTeacherScore,
  type TToolCall,
  type TTurn,
} from "@raas/shared";
import type {
  JobHandoff,
  JobPatch,
  JobRecord,
  JobTransitionWrite,
  StoredJob,
} from "../ports/job-record.types";
import type { JobListPage, JobStore, JobTotals } from "../ports/job-store.port";
import { matchesJobFilter } from "./job-filter";

/**
 * A `JobStore` in process memory: for tests and `--store memory`. Nothing survives a restart.
 * Job records are copied shallowly in and out (the engine never mutates a record in place; nested
 * payloads are shared, as they would be after a JSON round trip they are read-only by contract).
 */
export class MemoryJobStore implements JobStore {
  readonly #jobs = new Map<string, JobRecord>();
  readonly #byKey = new Map<string, string>();
  readonly #versions = new Map<string, { version: number; handoff: JobHandoff | null }>();
  readonly #turns = new Map<string, TTurn[]>();
  readonly #toolCalls = new Map<string, TToolCall[]>();
  readonly #sandboxEvents: TSandboxEvent[] = [];
  readonly #teacherScores = new Map<string, TTeacherScore>();

  async insertJobs(jobs: readonly JobRecord[]): Promise<void> {
    for (const job of jobs) {
      if (this.#jobs.has(job.id)) continue;
      if (job.jobKey !== null && this.#byKey.has(job.jobKey)) continue;
      this.#jobs.set(job.id, { ...job });
      this.#versions.set(job.id, { version: 0, handoff: null });
      if (job.jobKey !== null) this.#byKey.set(job.jobKey, job.id);
    }
  }

  async updateJobs(patches: readonly JobPatch[]): Promise<void> {
    for (const patch of patches) {
      const current = this.#jobs.get(patch.id);
      if (current) this.#jobs.set(patch.id, { ...current, ...patch });
    }
  }

  async transitionJobs(writes: readonly JobTransitionWrite[]): Promise<string[]> {
    const lost = new Set<string>();
    for (const { patch, expectedVersion, version, handoff } of writes) {
      const current = this.#jobs.get(patch.id);
      const meta = this.#versions.get(patch.id);
      if (!current || !meta || meta.version !== expectedVersion) {
        lost.add(patch.id);
        continue;
      }
      this.#jobs.set(patch.id, { ...current, ...definedFields(patch) });
      this.#versions.set(patch.id, {
        version,
        handoff: handoff === undefined ? meta.handoff : handoff && { ...handoff },
      });
    }
    return [...lost];
  }

  async readJob(id: string): Promise<StoredJob | null> {
    const job = this.#jobs.get(id);
    const meta = this.#versions.get(id);
    if (!job || !meta) return null;
    return { record: { ...job }, version: meta.version, handoff: meta.handoff && { ...meta.handoff } };
  }

  async listJobsHeldBy(workerId: string): Promise<StoredJob[]> {
    const held: StoredJob[] = [];
    for (const [id, meta] of this.#versions) {
      const job = this.#jobs.get(id);
      if (!job || isTerminalStatus(job.status) || meta.handoff?.workerId !== workerId) continue;
      held.push({ record: { ...job }, version: meta.version, handoff: { ...meta.handoff } });
    }
    return held.sort((a, b) => (a.record.id < b.record.id ? -1 : 1));
  }

  async getJob(id: string): Promise<JobRecord | null> {
    const job = this.#jobs.get(id);
    return job ? { ...job } : null;
  }

  async findJobByKey(jobKey: string): Promise<JobRecord | null> {
    const id = this.#byKey.get(jobKey);
    return id === undefined ? null : this.getJob(id);
  }

  async listJobs(query: TJobListQuery): Promise<JobListPage> {
    const all = [...this.#jobs.values()]
      .filter((job) => matchesJobFilter(job, query))
      .filter((job) => query.cursor === undefined || job.id < query.cursor)
      .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    const items = all.slice(0, query.limit).map((job) => ({ ...job }));
    const hasMore = all.length > query.limit;
    return { items, nextCursor: hasMore ? (items[items.length - 1]?.id ?? null) : null };
  }

  async listUnfinishedJobs(): Promise<JobRecord[]> {
    return [...this.#jobs.values()].filter((job) => !isTerminalStatus(job.status)).map((job) => ({ ...job }));
  }

  async listJobIds(filter: { groupId?: string; batchId?: string }): Promise<string[]> {
    return [...this.#jobs.values()]
      .filter((job) => !isTerminalStatus(job.status))
      .filter((job) => filter.groupId === undefined || job.groupId === filter.groupId)
      .filter((job) => filter.batchId === undefined || job.batchId === filter.batchId)
      .map((job) => job.id);
  }

  async listJobOwners(filter: { groupId: string } | { batchId: string }): Promise<Array<string | null>> {
    const owners = new Set<string | null>();
    for (const job of this.#jobs.values()) {
      const isMember = "groupId" in filter ? job.groupId === filter.groupId : job.batchId === filter.batchId;
      if (isMember) owners.add(job.ownerId);
    }
    return [...owners];
  }

  async totals(): Promise<JobTotals> {
    const totals: JobTotals = {
      submitted: 0,
      completed: 0,
      cancelled: 0,
      failedByKind: {},
      failedByLabel: {},
    };
    for (const job of this.#jobs.values()) {
      totals.submitted += 1;
      if (job.status === "completed") totals.completed += 1;
      if (job.status === "cancelled") totals.cancelled += 1;
      if (job.status === "failed" && job.failure) {
        totals.failedByKind[job.failure.kind] = (totals.failedByKind[job.failure.kind] ?? 0) + 1;
        const { label } = job.failure;
        if (label) totals.failedByLabel[label] = (totals.failedByLabel[label] ?? 0) + 1;
      }
    }
    return totals;
  }

  async appendTurns(turns: readonly TTurn[]): Promise<void> {
    for (const turn of turns) push(this.#turns, turn.jobId, structuredClone(turn));
  }

  async appendToolCalls(calls: readonly TToolCall[]): Promise<void> {
    for (const call of calls) push(this.#toolCalls, call.jobId, structuredClone(call));
  }

  async listTurns(jobId: string): Promise<TTurn[]> {
    return structuredClone(this.#turns.get(jobId) ?? []).sort((a, b) => a.index - b.index);
  }

  async listToolCalls(jobId: string): Promise<TToolCall[]> {
    return structuredClone(this.#toolCalls.get(jobId) ?? []).sort(
      (a, b) => a.turnIndex - b.turnIndex || a.index - b.index,
    );
  }

  async appendTeacherScores(scores: readonly TTeacherScore[]): Promise<void> {
    for (const score of scores) this.#teacherScores.set(score.jobId, structuredClone(score));
  }

  async getTeacherScore(jobId: string): Promise<TTeacherScore | null> {
    return structuredClone(this.#teacherScores.get(jobId) ?? null);
  }

  async deleteTrajectory(jobId: string): Promise<void> {
    this.#turns.delete(jobId);
    this.#toolCalls.delete(jobId);
    this.#teacherScores.delete(jobId);
  }

  async appendSandboxEvents(events: readonly TSandboxEvent[]): Promise<void> {
    for (const event of events) this.#sandboxEvents.push(structuredClone(event));
  }

  async listSandboxEvents(filter: {
    jobId?: string;
    sandboxId?: string;
    limit?: number;
  }): Promise<TSandboxEvent[]> {
    const matching = this.#sandboxEvents.filter(
      (event) =>
        (filter.jobId === undefined || event.jobId === filter.jobId) &&
        (filter.sandboxId === undefined || event.sandboxId === filter.sandboxId),
    );
    return structuredClone(matching.slice(-(filter.limit ?? 1_000)));
  }

  async close(): Promise<void> {}
}

/** The fields a patch sets (an `undefined` field leaves the stored value, as in the SQL stores). */
function definedFields(patch: JobPatch): JobPatch {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(patch)) if (value !== undefined) out[field] = value;
  return out as JobPatch;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
