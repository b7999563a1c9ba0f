import type { TCreateStepParsed, TGroup, TPolicyState, TRun, TStep, TStepTask } from "@raas/shared";

/** Running sums behind a step's reward statistics (kept with the step, never shown). */
export interface RewardAggregate {
  count: number;
  sum: number;
  sumOfSquares: number;
  min: number | null;
  max: number | null;
  /** Finished samples seen (delivered or not) and how many had reward > 0. */
  finished: number;
  solved: number;
  /** Generated tokens of handed-out trajectories. */
  deliveredTokens: number;
}

/**
 * A step as stored: what the API shows (but `failure`, read from its stats and request) plus what
 * the batch system needs to go on after a restart.
 */
export interface StepRecord extends Omit<TStep, "failure"> {
  /**
   * The validated request it was created with. Fixed at insert: a save need not store changes to
   * it (the Prisma adapter does not rewrite it, up to 10_000 inline tasks, on every save).
   */
  request: TCreateStepParsed;
  /** Next position in the task source. */
  nextTaskIndex: number;
  rewards: RewardAggregate;
  /** Compare-and-set version: bumped by every save. */
  version: number;
}

/** A group as stored: the API's view plus the task its members run. */
export interface GroupRecord extends TGroup {
  /** Fixed at insert, like a step's `request`: a save need not store changes to it. */
  task: TStepTask;
  /** The group of the next step that took this one's finished samples; null until then. */
  carriedIntoGroupId: string | null;
  version: number;
}

export interface RunRecord extends TRun {
  /** Next position in each dataset the run's steps drew from (dataset sources cycle in epochs). */
  taskCursors: Record<string, number>;
  version: number;
}

/**
 * Durable state of training runs, steps and groups (the batch system's, beside the job store).
 * Adapters: in-memory and Prisma (PGlite or PostgreSQL). Saves are compare-and-set on `version`:
 * a save whose `version` is not the stored one is refused (`false`), and a successful save stores
 * `version + 1` (the caller's record is updated in place).
 */
export interface BatchStore {
  insertRun(run: RunRecord): Promise<void>;
  getRun(id: string): Promise<RunRecord | null>;
  findRunByKey(runKey: string): Promise<RunRecord | null>;
  /** Newest first. */
  listRuns(limit: number): Promise<RunRecord[]>;
  saveRun(run: RunRecord): Promise<boolean>;

  insertStep(step: StepRecord): Promise<void>;
  getStep(id: string): Promise<StepRecord | null>;
  findStepByKey(runId: string, stepKey: string): Promise<StepRecord | null>;
  /** A run's steps, oldest first. */
  listSteps(runId: string): Promise<StepRecord[]>;
  /** Steps with status `running`, of every run (to go on after a restart). */
  listRunningSteps(): Promise<StepRecord[]>;
  saveStep(step: StepRecord): Promise<boolean>;

  insertGroups(groups: readonly GroupRecord[]): Promise<void>;
  getGroup(id: string): Promise<GroupRecord | null>;
  /** A step's groups, oldest first. */
  listGroups(stepId: string): Promise<GroupRecord[]>;
  /** A run's groups in state `carried` that no later step took or let go yet, oldest first. */
  listCarriedGroups(runId: string): Promise<GroupRecord[]>;
  saveGroup(group: GroupRecord): Promise<boolean>;

  /** Every stored policy state (owner, weight version, pause), by policy id. */
  listPolicyStates(): Promise<TPolicyState[]>;
  /** Inserts or replaces the state of `state.policyId`. */
  savePolicyState(state: TPolicyState): Promise<void>;

  close(): Promise<void>;
}
