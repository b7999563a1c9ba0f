/** What one `archiveJobs` call moved. */
export interface ArchivedJobsOutcome {
  /** Jobs whose trajectories this call moved (already archived and unfinished ones are skipped). */
  archivedJobs: number;
  /** Compressed bytes appended to the run's archive. */
  archivedBytes: number;
  /** Selected jobs left alone because they are not finished yet (a later call takes them), with their step. */
  unfinishedJobs: Array<{ jobId: string; stepId: string | null }>;
}

/**
 * The trajectory archive as retention sees it: moves jobs' trajectories (turns, tool calls) out of
 * the store into the run's archive, where reads find them. Adapter: `TrajectoryArchive` of
 * `@raas/db` (gzip JSONL per run).
 */
export interface TrajectoryRetention {
  /**
   * Archives the finished, not yet archived jobs of `runId` that belong to `stepIds` (submitted for
   * one of them) or are named in `jobIds`, except those in `keepJobIds`. Idempotent.
   */
  archiveJobs(
    runId: string,
    selection: { stepIds: readonly string[]; jobIds: readonly string[]; keepJobIds: readonly string[] },
  ): Promise<ArchivedJobsOutcome>;
}
