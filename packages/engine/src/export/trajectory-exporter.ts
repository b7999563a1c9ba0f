import { requestFailure, type TJob, type TTrajectoryExport, type TTrajectoryExportPage } from "@raas/shared";
import type { JobStore } from "../ports/job-store.port";
import { buildTrajectoryExport } from "./build-trajectory-export";

/** Largest page of `exportBatch`: a page's turns are held in memory at once. */
const MAX_EXPORT_PAGE_SIZE = 100;

export interface TrajectoryExporterOptions {
  store: JobStore;
  /** Writes buffered changes to the store before reading (the engine's group commit). */
  flush(): Promise<void>;
  /** Finds a job as the store holds it (the engine's pending writes flushed first). */
  findJob(id: string): Promise<TJob | null>;
}

/** A job's stored turns, tool calls (their rewards) and teacher score as one export. */
async function exportStored(store: JobStore, job: TJob): Promise<TTrajectoryExport> {
  const [turns, toolCalls, teacherScore] = await Promise.all([
    store.listTurns(job.id),
    store.listToolCalls(job.id),
    store.getTeacherScore(job.id),
  ]);
  return buildTrajectoryExport(job, turns, toolCalls, teacherScore);
}

/** Exports stored trajectories for training, one job or a batch page by page, from the store. */
export class TrajectoryExporter {
  readonly #options: TrajectoryExporterOptions;

  constructor(options: TrajectoryExporterOptions) {
    this.#options = options;
  }

  async exportJob(jobId: string): Promise<TTrajectoryExport> {
    const job = await this.#options.findJob(jobId);
    if (!job) throw requestFailure("NOT_FOUND", `no job with id "${jobId}"`, { details: { jobId } });
    await this.#options.flush();
    return exportStored(this.#options.store, job);
  }

  /**
   * One page of a batch's jobs (newest first), each exported. `NOT_FOUND` when the batch has no
   * job at all (checked on the first page: a later page may be empty after cancellations).
   */
  async exportBatch(
    batchId: string,
    page: { cursor?: string; limit: number },
  ): Promise<TTrajectoryExportPage> {
    if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > MAX_EXPORT_PAGE_SIZE) {
      throw requestFailure(
        "VALIDATION_FAILED",
        `limit must be an integer from 1 to ${MAX_EXPORT_PAGE_SIZE}, got ${page.limit}`,
      );
    }
    await this.#options.flush();
    const { store } = this.#options;
    const jobs = await store.listJobs({
      batchId,
      limit: page.limit,
      ...(page.cursor !== undefined ? { cursor: page.cursor } : {}),
    });
    if (page.cursor === undefined && jobs.items.length === 0) {
      throw requestFailure("NOT_FOUND", `no job in batch "${batchId}"`, { details: { batchId } });
    }
    const items = await Promise.all(jobs.items.map((job) => exportStored(store, job)));
    return { items, nextCursor: jobs.nextCursor };
  }
}
