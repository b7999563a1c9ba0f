/** What archiving a run moved (`runs.archive`). */
interface ArchiveRunOutcome {
  runId: string;
  /** Jobs whose trajectories this call moved (0 when the run was already archived). */
  archivedJobs: number;
  /** Compressed bytes this call appended to the run's archive file. */
  archivedBytes: number;
  /** The archive file on the server. */
  file: string;
}

/**
 * Retention behind `runs.archive`: moves a finished run's trajectories (turns, tool calls) to a
 * compressed JSONL file, keeping job, step and group rows queryable. Type-only: `@raas/db`'s
 * `TrajectoryArchive` satisfies it; the composition root hands it in.
 */
export interface ControlPlaneArchive {
  /** 404 for an unknown run, 409 while the run is active. */
  archiveRun(runId: string): Promise<ArchiveRunOutcome>;
}
