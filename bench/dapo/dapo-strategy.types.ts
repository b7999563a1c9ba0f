import type { TSubmitJobRequest } from "@raas/shared";
import type { DapoLedger } from "./dapo-ledger";
import { DAPO_TASK_KIND, type DapoTask } from "./dapo-workload";

/** What every strategy is asked for: `steps` training steps of m informative groups of n. */
export interface DapoPlan {
  steps: number;
  /** m: informative groups wanted per step. */
  groupsPerStep: number;
  /** n: samples per group. */
  groupSize: number;
  /** B: groups a baseline trainer submits per round (wait-for-all, ProRL-style). */
  batchGroups: number;
  /** The batch system's over-provisioning (undecided groups in flight per group still wanted). */
  overProvision: number;
  /** The batch system's pilot: members a new group runs first (null: all at once). */
  pilot: number | null;
}

export interface StrategyResult {
  name: string;
  /** From the first submit to the last group of the last step in the trainer's hands. */
  wallMs: number;
  /** Informative groups handed to the trainer (m × steps when all went well). */
  informative: number;
  groupsStarted: number;
  jobsSubmitted: number;
  ledger: DapoLedger;
  /** Finished samples neither handed out nor kept nor in a decided zero-variance group. */
  finishedThrownAway: number;
  /** Finished samples kept for a later step when the run ended (carried over). */
  keptForLater: number;
  /** Tokens the simulator generated during the run (its counter). */
  simulatorTokens: number;
  /** Tokens in the stored turns of the run's jobs. */
  storedTokens: number;
  stepWallMs: number[];
  /** CPU time of the bench process (engine, batch system, trainer loop) during its steps. */
  cpuSeconds: number;
  /** Filled by the weight-sync run only. */
  weightSync?: WeightSyncFigures;
}

export interface WeightSyncFigures {
  /** Generated tokens lost to the sync: streamed but never received, plus received but not stored. */
  tokensDiscarded: number;
  /** Tokens the simulator streamed that the pool never received (read while nothing ran). */
  lostInTransit: number;
  /** Requests the pause interrupted and the tokens they had handed over. */
  interruptedRequests: number;
  interruptedTokens: number;
  /** Of those, tokens found in stored turns (spans sampled before the interrupt). */
  keptTokens: number;
  /** How long the "sync" held generation (pause → resume), ms. */
  holdMs: number;
  /** Resume → generation back at the in-flight level seen just before the pause, ms (null: never). */
  idleBeyondSyncMs: number | null;
  inFlightBeforePause: number;
  /** Turns recorded under the new weight version after the resume. */
  turnsAfterResume: number;
}

/** The tasks in the order every strategy draws them. */
export class TaskStream {
  #next = 0;
  constructor(readonly tasks: readonly DapoTask[]) {}

  take(): { task: DapoTask; index: number } {
    const index = this.#next;
    this.#next += 1;
    const task = this.tasks[index % this.tasks.length] as DapoTask;
    return { task, index };
  }
}

/**
 * The sampling seed of a group slot, as the batch system derives it from the task's `agent.seed`
 * (`memberSubmitRequest`, engine batches/member-request.ts): every strategy samples task i's slot
 * k alike (common random numbers), so the strategies differ in what they do, not in their luck.
 */
function memberSeed(taskSeed: number, slot: number): number {
  return (taskSeed + slot * 7_919) % 2_147_483_647;
}

/** A task's payload; its `agent.seed` is the base of its members' seeds. */
export function taskPayload(task: DapoTask): Record<string, unknown> {
  return { taskId: task.taskId, problemWords: task.problemWords, agent: { seed: task.seed } };
}

/** The n jobs of one baseline group, labelled with group and batch ids (labels only). */
export function baselineGroupRequests(
  draw: { task: DapoTask; index: number },
  groupId: string,
  batchId: string,
  groupSize: number,
): TSubmitJobRequest[] {
  return Array.from({ length: groupSize }, (_, slot) => ({
    kind: DAPO_TASK_KIND,
    payload: { ...taskPayload(draw.task), agent: { seed: memberSeed(draw.task.seed, slot), temperature: 1 } },
    groupId,
    batchId,
    metadata: { taskId: draw.task.taskId, slot },
  }));
}

/** Time a strategy's steps took, measured by the bench around each `step` call. */
export interface StepTiming {
  wallMs: number;
  stepWallMs: number[];
  cpuSeconds: number;
}

/**
 * One strategy, driven step by step: the bench interleaves the strategies' steps (each in its
 * own rig) so that load from outside the bench falls on all of them alike.
 */
export interface StrategyRunner {
  readonly name: string;
  /** Runs training step `index` until its m informative groups are in the trainer's hands. */
  step(index: number): Promise<void>;
  /** After the last step: lets cancels land and computes the figures. */
  finish(timing: StepTiming): Promise<StrategyResult>;
}
