import type { TCurriculumSnapshot } from "@raas/shared";
import type { TaskHistory } from "../curriculum/task-history";

/** New outcomes of one task (oldest first: `1` success, `0` failure). */
export interface TaskOutcomes {
  taskId: string;
  outcomes: string;
}

/** What the adaptive sampler keeps per run and task source beside the history. */
export interface SamplerState {
  /** Draws made so far (the re-probe clock). */
  draws: number;
}

/**
 * Durable per-task history and curriculum state (the batch system's, beside the batch store).
 * Adapters: in-memory and Prisma (PGlite or PostgreSQL).
 */
export interface CurriculumStore {
  /** A dataset's task histories: of one run (`runId`), or across its runs (`runId` null). */
  listTaskHistory(dataset: string, runId: string | null): Promise<TaskHistory[]>;
  /**
   * Appends outcomes to the run's and to the dataset-wide history of each task. Each row is
   * updated in place by the database (two runs recording at once both count); a task named twice
   * counts both.
   */
  recordOutcomes(
    dataset: string,
    runId: string,
    outcomes: readonly TaskOutcomes[],
    atMs: number,
  ): Promise<void>;
  getSamplerState(runId: string, dataset: string): Promise<SamplerState | null>;
  saveSamplerState(runId: string, dataset: string, state: SamplerState): Promise<void>;
  /** Stores a step's snapshot (a second one for the same step replaces it). */
  saveSnapshot(runId: string, snapshot: TCurriculumSnapshot): Promise<void>;
  /** A run's snapshots, oldest step first. */
  listSnapshots(runId: string): Promise<TCurriculumSnapshot[]>;
}
