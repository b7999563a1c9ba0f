import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { ArchivedJobsOutcome, TrajectoryRetention } from "@raas/engine";
import { requestFailure, TERMINAL_STATUSES } from "@raas/shared";
import { fromToolCallRow, fromTurnRows } from "../codec/trajectory-codec";
import type { PrismaClient } from "../generated/client";
import type { SqlExecutor } from "../sql/sql-executor";
import {
  type ArchivedTrajectory,
  decodeArchiveLine,
  encodeArchiveLine,
  toolCallRowFromSql,
  turnRowFromSql,
} from "./archive-record-codec";
import { appendGzipMembers, readGzipMember } from "./gzip-member-file";

/** Jobs moved per transaction. */
const DEFAULT_PAGE_SIZE = 200;

export interface TrajectoryArchiveOptions {
  prisma: PrismaClient;
  sql: SqlExecutor;
  /** Directory of the archive files (one `<runId>.jsonl.gz` per run). Without it, nothing can be archived or read back. */
  archiveDir?: string;
  /** Jobs moved per transaction. Default 200. */
  pageSize?: number;
  /** Clock for `archivedAtMs`. Default `Date.now`. */
  nowMs?: () => number;
}

export interface ArchiveRunResult {
  runId: string;
  /** Jobs whose trajectories this call moved (0 when the run was already archived). */
  archivedJobs: number;
  /** Compressed bytes this call appended to the archive file. */
  archivedBytes: number;
  /** The archive file. */
  file: string;
}

/** The archive file of a run, relative to the archive directory. */
function archiveFileName(runId: string): string {
  return `${runId.replace(/[^A-Za-z0-9_-]/g, "_")}.jsonl.gz`;
}

/**
 * Retention: moves a finished run's trajectories (turns and tool calls) out of the database into
 * a gzip JSONL file per run, one gzip member per job, and keeps every job row (status, reward,
 * timings) and every step/group row queryable. An archived job's trajectory is read back from its
 * member (offset and length on the job row), so exports and the trajectory view keep working.
 *
 * Each page is one transaction under an advisory lock per run: select jobs not yet archived,
 * append their lines and fsync, then mark the rows and delete their turns and tool calls. A crash
 * between the append and the commit leaves unreferenced bytes in the file, never a lost
 * trajectory; the next call archives those jobs again.
 */
export class TrajectoryArchive implements TrajectoryRetention {
  readonly #prisma: PrismaClient;
  readonly #sql: SqlExecutor;
  readonly #archiveDir: string | undefined;
  readonly #pageSize: number;
  readonly #nowMs: () => number;

  constructor(options: TrajectoryArchiveOptions) {
    this.#prisma = options.prisma;
    this.#sql = options.sql;
    this.#archiveDir = options.archiveDir;
    this.#pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.#nowMs = options.nowMs ?? Date.now;
  }

  /** Archives every finished job of a finished run. 404 for an unknown run, 409 while it is active. */
  async archiveRun(runId: string): Promise<ArchiveRunResult> {
    const dir = this.#requireDir();
    const run = await this.#prisma.trainingRun.findUnique({ where: { id: runId }, select: { status: true } });
    if (!run) throw requestFailure("NOT_FOUND", `no training run ${runId}`);
    if (run.status !== "finished") {
      throw requestFailure(
        "CONFLICT",
        `run ${runId} is ${run.status}; only a finished run's trajectories are archived (finish it first)`,
      );
    }
    await mkdir(dir, { recursive: true });
    const file = archiveFileName(runId);
    const result: ArchiveRunResult = { runId, archivedJobs: 0, archivedBytes: 0, file: path.join(dir, file) };
    for (;;) {
      const page = await this.#archivePage(runId, dir, file, { where: "run_id = $1", params: [runId] });
      if (page.jobs === 0) return result;
      result.archivedJobs += page.jobs;
      result.archivedBytes += page.bytes;
    }
  }

  /**
   * Retention during a run (`RetentionSystem`): archives the finished, not yet archived jobs of
   * `runId` submitted for one of `stepIds` or named in `jobIds`, except `keepJobIds` (samples a
   * later step still uses). The run may be active. Appends to the same `<runId>.jsonl.gz` as
   * `archiveRun`, under the same lock, so the two never interleave.
   */
  async archiveJobs(
    runId: string,
    selection: { stepIds: readonly string[]; jobIds: readonly string[]; keepJobIds: readonly string[] },
  ): Promise<ArchivedJobsOutcome> {
    const dir = this.#requireDir();
    await mkdir(dir, { recursive: true });
    const file = archiveFileName(runId);
    const where = `run_id = $1 AND (batch_id = ANY($2::text[]) OR id = ANY($3::text[]))
      AND NOT (id = ANY($4::text[]))`;
    const params = [runId, [...selection.stepIds], [...selection.jobIds], [...selection.keepJobIds]];
    const outcome: ArchivedJobsOutcome = { archivedJobs: 0, archivedBytes: 0, unfinishedJobs: [] };
    for (;;) {
      const page = await this.#archivePage(runId, dir, file, { where, params });
      if (page.jobs === 0) break;
      outcome.archivedJobs += page.jobs;
      outcome.archivedBytes += page.bytes;
    }
    const unfinished = await this.#sql.query<{ id: string; batch_id: string | null }>(
      `SELECT id, batch_id FROM jobs WHERE ${where} AND NOT (status = ANY($5::text[])) ORDER BY id`,
      [...params, [...TERMINAL_STATUSES]],
    );
    outcome.unfinishedJobs = unfinished.map((row) => ({ jobId: row.id, stepId: row.batch_id }));
    return outcome;
  }

  /**
   * The archived trajectory of `jobId`, or null when it is not archived. A job archived where
   * this store cannot read it (no archive directory, file gone) is a 404 that says so.
   */
  async readArchived(jobId: string): Promise<ArchivedTrajectory | null> {
    const job = await this.#prisma.job.findUnique({
      where: { id: jobId },
      select: { archivedAtMs: true, archivePath: true, archiveOffset: true, archiveBytes: true },
    });
    if (!job || job.archivedAtMs === null || job.archivePath === null) return null;
    const archivedAt = new Date(job.archivedAtMs).toISOString();
    if (this.#archiveDir === undefined) {
      throw requestFailure(
        "NOT_FOUND",
        `job ${jobId}'s trajectory was archived at ${archivedAt} to ${job.archivePath}, and this server has no archive directory to read it from`,
      );
    }
    const file = path.join(this.#archiveDir, job.archivePath);
    try {
      const line = await readGzipMember(file, {
        offset: job.archiveOffset ?? 0,
        bytes: job.archiveBytes ?? 0,
      });
      return decodeArchiveLine(line);
    } catch (error) {
      throw requestFailure(
        "NOT_FOUND",
        `job ${jobId}'s trajectory was archived at ${archivedAt} to ${file}, which cannot be read: ${(error as Error).message}`,
      );
    }
  }

  #requireDir(): string {
    if (this.#archiveDir !== undefined) return this.#archiveDir;
    throw requestFailure("UNAVAILABLE", "this server has no trajectory archive directory configured");
  }

  /** `selection.where` names jobs of `runId` with `$1…$n` bound to `selection.params`. */
  #archivePage(
    runId: string,
    dir: string,
    file: string,
    selection: { where: string; params: readonly unknown[] },
  ): Promise<{ jobs: number; bytes: number }> {
    const next = selection.params.length + 1;
    return this.#sql.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`raas:archive:${runId}`]);
      const jobs = await tx.query<{ id: string }>(
        `SELECT id FROM jobs WHERE ${selection.where} AND archived_at_ms IS NULL
         AND status = ANY($${next}::text[]) ORDER BY id LIMIT $${next + 1}`,
        [...selection.params, [...TERMINAL_STATUSES], this.#pageSize],
      );
      if (jobs.length === 0) return { jobs: 0, bytes: 0 };
      const ids = jobs.map((job) => job.id);
      const turnRows = await tx.query<Record<string, unknown>>(
        `SELECT * FROM turns WHERE job_id = ANY($1::text[]) ORDER BY job_id, index`,
        [ids],
      );
      const callRows = await tx.query<Record<string, unknown>>(
        `SELECT * FROM tool_calls WHERE job_id = ANY($1::text[]) ORDER BY job_id, turn_index, index`,
        [ids],
      );
      const archivedAtMs = this.#nowMs();
      const turns = groupByJob(fromTurnRows(turnRows.map(turnRowFromSql)));
      const calls = groupByJob(callRows.map((row) => fromToolCallRow(toolCallRowFromSql(row))));
      const lines = ids.map((jobId) =>
        encodeArchiveLine({
          jobId,
          runId,
          archivedAtMs,
          turns: turns.get(jobId) ?? [],
          toolCalls: calls.get(jobId) ?? [],
        }),
      );
      const locations = await appendGzipMembers(path.join(dir, file), lines);
      await tx.execute(
        `UPDATE jobs SET archived_at_ms = $1, archive_path = $2, archive_offset = v.o, archive_bytes = v.b
         FROM unnest($3::text[], $4::float8[], $5::int4[]) AS v(id, o, b) WHERE jobs.id = v.id`,
        [archivedAtMs, file, ids, locations.map((l) => l.offset), locations.map((l) => l.bytes)],
      );
      await tx.execute(`DELETE FROM tool_calls WHERE job_id = ANY($1::text[])`, [ids]);
      await tx.execute(`DELETE FROM turns WHERE job_id = ANY($1::text[])`, [ids]);
      return { jobs: ids.length, bytes: locations.reduce((sum, l) => sum + l.bytes, 0) };
    });
  }
}

function groupByJob<T extends { jobId: string }>(items: readonly T[]): Map<string, T[]> {
  const byJob = new Map<string, T[]>();
  for (const item of items) {
    const list = byJob.get(item.jobId);
    if (list) list.push(item);
    else byJob.set(item.jobId, [item]);
  }
  return byJob;
}
