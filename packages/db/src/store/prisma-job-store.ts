import type {
  JobListPage,
  JobPatch,
  JobRecord,
  JobStore,
  JobTotals,
  JobTransitionWrite,
  StoredJob,
} from "@raas/engine";
import type { TJobListQuery, TSandboxEvent, TTeacherScore, TToolCall, TTurn } from "@raas/shared";
import { TrajectoryArchive } from "../archive/trajectory-archive";
import { fromJobRow, fromStoredJobRow } from "../codec/job-row-codec";
import { fromSandboxEventRow, fromToolCallRow, fromTurnRows } from "../codec/trajectory-codec";
import type { Prisma, PrismaClient } from "../generated/client";
import type { SqlExecutor } from "../sql/sql-executor";
import { jobListWhere, UNFINISHED } from "./job-list-where";
import { insertJobRows, transitionJobRows, updateJobRows } from "./job-writes";
import { fromTeacherScoreRow, upsertTeacherScoreRows } from "./teacher-score-rows";
import { insertSandboxEventRows, upsertToolCallRows, upsertTurnRows } from "./trajectory-writes";
import { TurnPrefixCache } from "./turn-prefix-cache";

const DEFAULT_LIST_LIMIT = 50;
const DEFAULT_SANDBOX_EVENT_LIMIT = 1_000;

export interface PrismaJobStoreOptions {
  prisma: PrismaClient;
  /** The driver under `prisma`, used for the bulk writes. */
  sql: SqlExecutor;
  kind: "pglite" | "postgres";
  /** Releases the client and what is under it (pool, PGlite instance); called once by `close()`. Default: `prisma.$disconnect()`. */
  release?: () => Promise<void>;
  /** Directory of the trajectory archive (retention); archived trajectories are read from it. Default none. */
  archiveDir?: string;
}

/**
 * `JobStore` for PGlite and PostgreSQL alike. Reads go through Prisma; the engine's coalesced
 * write batches go straight to the driver as multi-row statements (one round trip or one
 * transaction per call, so a batch commits atomically).
 */
export class PrismaJobStore implements JobStore {
  readonly kind: "pglite" | "postgres";
  readonly #prisma: PrismaClient;
  readonly #sql: SqlExecutor;
  readonly #release: (() => Promise<void>) | undefined;
  #closing: Promise<void> | null = null;
  readonly #lastTurns = new TurnPrefixCache();
  readonly #archive: TrajectoryArchive;

  constructor(options: PrismaJobStoreOptions) {
    this.#prisma = options.prisma;
    this.#sql = options.sql;
    this.kind = options.kind;
    this.#release = options.release;
    this.#archive = new TrajectoryArchive({
      prisma: options.prisma,
      sql: options.sql,
      ...(options.archiveDir !== undefined && { archiveDir: options.archiveDir }),
    });
  }

  /** Retention: archive a finished run's trajectories, read archived ones back. */
  get archive(): TrajectoryArchive {
    return this.#archive;
  }

  /** The driver under Prisma, for the other stores of this package whose writes bypass it (bytea). */
  get sql(): SqlExecutor {
    return this.#sql;
  }

  /** The Prisma client, for the other stores of this package that share the connection. */
  get prisma(): PrismaClient {
    return this.#prisma;
  }

  /** A job whose id or `jobKey` is already stored (or earlier in the batch) is skipped. */
  insertJobs(jobs: readonly JobRecord[]): Promise<void> {
    return insertJobRows(this.#sql, jobs);
  }

  /** Patches apply in order; several patches of one job are merged first. One transaction. */
  updateJobs(patches: readonly JobPatch[]): Promise<void> {
    return updateJobRows(this.#sql, patches);
  }

  /** Compare-and-set on `version`: one statement per set of patched columns, one transaction. */
  transitionJobs(writes: readonly JobTransitionWrite[]): Promise<string[]> {
    return transitionJobRows(this.#sql, writes);
  }

  async readJob(id: string): Promise<StoredJob | null> {
    const row = await this.#prisma.job.findUnique({ where: { id } });
    return row ? fromStoredJobRow(row) : null;
  }

  async listJobsHeldBy(workerId: string): Promise<StoredJob[]> {
    const rows = await this.#prisma.job.findMany({
      where: { ...UNFINISHED, handoff: { path: ["workerId"], equals: workerId } },
      orderBy: { id: "asc" },
    });
    return rows.map(fromStoredJobRow);
  }

  async getJob(id: string): Promise<JobRecord | null> {
    const row = await this.#prisma.job.findUnique({ where: { id } });
    return row ? fromJobRow(row) : null;
  }

  async findJobByKey(jobKey: string): Promise<JobRecord | null> {
    const row = await this.#prisma.job.findUnique({ where: { jobKey } });
    return row ? fromJobRow(row) : null;
  }

  async listJobs(query: TJobListQuery): Promise<JobListPage> {
    const limit = query.limit ?? DEFAULT_LIST_LIMIT;
    const rows = await this.#prisma.job.findMany({
      where: jobListWhere(query),
      orderBy: { id: "desc" },
      take: limit + 1,
    });
    const items = rows.slice(0, limit).map(fromJobRow);
    const nextCursor = rows.length > limit ? (items[items.length - 1]?.id ?? null) : null;
    return { items, nextCursor };
  }

  async listUnfinishedJobs(): Promise<JobRecord[]> {
    const rows = await this.#prisma.job.findMany({ where: UNFINISHED, orderBy: { id: "asc" } });
    return rows.map(fromJobRow);
  }

  async listJobIds(filter: { groupId?: string; batchId?: string }): Promise<string[]> {
    const where: Prisma.JobWhereInput = { ...UNFINISHED };
    if (filter.groupId !== undefined) where.groupId = filter.groupId;
    if (filter.batchId !== undefined) where.batchId = filter.batchId;
    const rows = await this.#prisma.job.findMany({ where, select: { id: true }, orderBy: { id: "asc" } });
    return rows.map((row) => row.id);
  }

  async listJobOwners(filter: { groupId: string } | { batchId: string }): Promise<Array<string | null>> {
    const rows = await this.#prisma.job.findMany({
      where: "groupId" in filter ? { groupId: filter.groupId } : { batchId: filter.batchId },
      select: { ownerId: true },
      distinct: ["ownerId"],
    });
    return rows.map((row) => row.ownerId);
  }

  async totals(): Promise<JobTotals> {
    const groups = await this.#prisma.job.groupBy({
      by: ["status", "failureKind", "failureLabel"],
      _count: { _all: true },
    });
    const totals: JobTotals = {
      submitted: 0,
      completed: 0,
      cancelled: 0,
      failedByKind: {},
      failedByLabel: {},
    };
    for (const group of groups) {
      const count = group._count._all;
      totals.submitted += count;
      if (group.status === "completed") totals.completed += count;
      else if (group.status === "cancelled") totals.cancelled += count;
      else if (group.status === "failed" && group.failureKind !== null) {
        totals.failedByKind[group.failureKind] = (totals.failedByKind[group.failureKind] ?? 0) + count;
        const label = group.failureLabel;
        if (label !== null) totals.failedByLabel[label] = (totals.failedByLabel[label] ?? 0) + count;
      }
    }
    return totals;
  }

  /**
   * A turn whose `(jobId, index)` is already stored is replaced: a retried flush is idempotent
   * and a restarted attempt overwrites the earlier attempt's turn.
   */
  async appendTurns(turns: readonly TTurn[]): Promise<void> {
    const written = await upsertTurnRows(this.#sql, turns, (jobId, index) =>
      this.#lastTurns.previousOf(jobId, index),
    );
    this.#lastTurns.remember(written);
  }

  /** Same replace-on-key rule as `appendTurns`, keyed by `(jobId, turnIndex, index)`. */
  appendToolCalls(calls: readonly TToolCall[]): Promise<void> {
    return upsertToolCallRows(this.#sql, calls);
  }

  async listTurns(jobId: string): Promise<TTurn[]> {
    const rows = await this.#prisma.turn.findMany({ where: { jobId }, orderBy: { index: "asc" } });
    if (rows.length > 0) return fromTurnRows(rows);
    return (await this.#archive.readArchived(jobId))?.turns ?? [];
  }

  /** One row per job: a later score of the job replaces the earlier. */
  appendTeacherScores(scores: readonly TTeacherScore[]): Promise<void> {
    return upsertTeacherScoreRows(this.#sql, scores);
  }

  async getTeacherScore(jobId: string): Promise<TTeacherScore | null> {
    const row = await this.#prisma.teacherScore.findUnique({ where: { jobId } });
    return row ? fromTeacherScoreRow(row) : null;
  }

  async deleteTrajectory(jobId: string): Promise<void> {
    this.#lastTurns.forget(jobId);
    await this.#prisma.$transaction([
      this.#prisma.toolCall.deleteMany({ where: { jobId } }),
      this.#prisma.turn.deleteMany({ where: { jobId } }),
      this.#prisma.teacherScore.deleteMany({ where: { jobId } }),
    ]);
  }

  async listToolCalls(jobId: string): Promise<TToolCall[]> {
    const rows = await this.#prisma.toolCall.findMany({
      where: { jobId },
      orderBy: [{ turnIndex: "asc" }, { index: "asc" }],
    });
    if (rows.length > 0) return rows.map(fromToolCallRow);
    return (await this.#archive.readArchived(jobId))?.toolCalls ?? [];
  }

  appendSandboxEvents(events: readonly TSandboxEvent[]): Promise<void> {
    return insertSandboxEventRows(this.#sql, events);
  }

  /** The most recent `limit` (default 1 000) matching events, oldest first. */
  async listSandboxEvents(filter: {
    jobId?: string;
    sandboxId?: string;
    limit?: number;
  }): Promise<TSandboxEvent[]> {
    const where: Prisma.SandboxEventWhereInput = {};
    if (filter.jobId !== undefined) where.jobId = filter.jobId;
    if (filter.sandboxId !== undefined) where.sandboxId = filter.sandboxId;
    const rows = await this.#prisma.sandboxEvent.findMany({
      where,
      orderBy: { id: "desc" },
      take: filter.limit ?? DEFAULT_SANDBOX_EVENT_LIMIT,
    });
    return rows.reverse().map(fromSandboxEventRow);
  }

  /** Disconnects and releases the database; idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#release ? this.#release() : this.#prisma.$disconnect();
    return this.#closing;
  }
}
