// Ours: the engine's BatchSystem (server-side DAPO) — zero-variance policy, early decision,
// refill, cancel of redundant jobs at the step's close and carry-over into the next step. The
// trainer side is a plain long-poll loop over `nextGroups`.
import { BatchSystem, MemoryBatchStore, PolicyControl, type TaskCatalog } from "@raas/training";
import {
  addToEntry,
  emptyLedger,
  isFinishedSample,
  type StepGroupView,
  unaccountedSamples,
} from "./dapo-ledger";
import type { DapoRig } from "./dapo-rig";
import {
  type DapoPlan,
  type StepTiming,
  type StrategyResult,
  type StrategyRunner,
  taskPayload,
} from "./dapo-strategy.types";
import { DAPO_TASK_KIND, type DapoTask } from "./dapo-workload";

const DATASET = "dapo-bench";

export interface OursHooks {
  /** Weight version source for the batch system's dispatch stamps. */
  weightVersion?: () => number | null;
  /** Called each time a group is handed out (step index, groups handed out in that step so far). */
  onDelivered?: (stepIndex: number, delivered: number) => void;
  /**
   * Pause generation (`wait`) from the end of each step until the next begins: the comparison
   * interleaves strategies, and ours must not go on generating (groups carried whole keep their
   * running members) while the clock runs for the others.
   */
  holdBetweenSteps?: boolean;
}

function catalogOf(tasks: readonly DapoTask[]): TaskCatalog {
  const stepTasks = tasks.map((task) => ({
    taskId: task.taskId,
    kind: DAPO_TASK_KIND,
    payload: taskPayload(task),
  }));
  return {
    list: async () => [{ name: DATASET, size: stepTasks.length, kinds: [DAPO_TASK_KIND] }],
    tasks: async (name) => (name === DATASET ? stepTasks : null),
  };
}

/** Ours, step by step: one run of the batch system, one step per `step` call. */
export class OursRunner implements StrategyRunner {
  readonly #batches: BatchSystem;
  readonly #stepIds: string[] = [];
  #runId: string | null = null;
  #tokensAtStart = 0;
  #informative = 0;
  readonly #hold: PolicyControl | null;

  constructor(
    readonly name: string,
    private readonly rig: DapoRig,
    private readonly plan: DapoPlan,
    tasks: readonly DapoTask[],
    private readonly hooks: OursHooks = {},
  ) {
    this.#batches = new BatchSystem({
      engine: rig.engine,
      store: new MemoryBatchStore(),
      catalog: catalogOf(tasks),
      ...(hooks.weightVersion ? { weightVersion: hooks.weightVersion } : {}),
    });
    this.#hold = hooks.holdBetweenSteps
      ? new PolicyControl({ store: new MemoryBatchStore(), sinks: [rig.pool] })
      : null;
  }

  async step(index: number): Promise<void> {
    const batches = this.#batches;
    if (this.#hold?.state.isPaused) await this.#hold.resume();
    if (this.#runId === null) {
      await batches.start();
      this.#runId = (await batches.createRun({ name: "dapo-bench" })).run.id;
      this.#tokensAtStart = (await this.rig.simulator.snapshot()).generationTokens;
    }
    const { step } = await batches.createStep({
      runId: this.#runId,
      tasks: { type: "dataset", dataset: DATASET },
      groupSize: this.plan.groupSize,
      groups: this.plan.groupsPerStep,
      // Agent overrides make the batch system give every member its own sampling seed.
      agent: { temperature: 1 },
      dynamicSampling: {
        policy: "zero-variance",
        overProvision: this.plan.overProvision,
        ...(this.plan.pilot === null ? {} : { pilot: this.plan.pilot }),
      },
    });
    this.#stepIds.push(step.id);
    let afterSeq = 0;
    for (;;) {
      const next = await batches.nextGroups(step.id, { afterSeq, limit: 1_000, timeoutMs: 30_000 });
      for (const group of next.groups) {
        if (group.decision === "informative") this.#informative += 1;
        afterSeq = group.seq;
        this.hooks.onDelivered?.(index, afterSeq);
      }
      if (next.done) break;
    }
    await this.#hold?.pause({ mode: "wait" });
  }

  async finish(timing: StepTiming): Promise<StrategyResult> {
    const { rig } = this;
    const batches = this.#batches;
    const stepIds = this.#stepIds;
    // Untimed from here: what still runs may finish so that every job is accounted for.
    if (this.#hold?.state.isPaused) await this.#hold.resume();
    const listAll = async () => (await Promise.all(stepIds.map((id) => batches.listGroups(id)))).flat();
    // The close's cancels land after the last step is done: wait for every job, then for the
    // batch system to have applied their ends (stop() waits for its queued work).
    const jobIds = (await listAll()).flatMap((g) => g.members.flatMap((m) => [...m.pastJobIds, m.jobId]));
    await rig.waitForJobs(jobIds.filter((id) => id !== ""));
    await batches.stop();

    const steps = await Promise.all(stepIds.map((id) => batches.getStep(id)));
    const groups = await listAll();
    const ledger = emptyLedger();
    for (const step of steps) {
      for (const key of ["cancelled", "zeroVariance", "stale", "infraFailures"] as const) {
        const entry = step.stats.waste[key];
        ledger[key].jobs += entry.jobs;
        ledger[key].rolloutSeconds =
          Math.round((ledger[key].rolloutSeconds + entry.rolloutSeconds) * 1_000) / 1_000;
        ledger[key].generatedTokens += entry.generatedTokens;
      }
    }
    const ours = new Set(stepIds);
    const ended = [...rig.endedJobs.values()].filter((job) => job.batchId !== null && ours.has(job.batchId));
    const finished = ended.filter((job) =>
      isFinishedSample({ status: job.status as "completed", trainable: job.trainable }),
    );
    const thrown = new Set(
      unaccountedSamples(
        finished.map((job) => job.id),
        groups,
      ),
    );
    for (const job of finished) {
      if (!thrown.has(job.id)) continue;
      addToEntry(ledger.thrownAway, {
        rolloutMs: (job.timings.initMs ?? 0) + (job.timings.runMs ?? 0) + (job.timings.evalMs ?? 0),
        generatedTokens: await rig.storedTokens(job.id),
      });
    }
    let storedTokens = 0;
    for (const job of ended) storedTokens += await rig.storedTokens(job.id);
    return {
      name: this.name,
      ...timing,
      informative: this.#informative,
      groupsStarted: steps.reduce((sum, s) => sum + s.stats.groupsStarted, 0),
      jobsSubmitted: steps.reduce((sum, s) => sum + s.stats.jobsSubmitted, 0),
      ledger,
      finishedThrownAway: thrown.size,
      keptForLater: keptSamples(groups),
      simulatorTokens: (await rig.simulator.snapshot()).generationTokens - this.#tokensAtStart,
      storedTokens,
    };
  }

  /** The ended jobs of this run's steps. */
  endedJobIds(): string[] {
    const ours = new Set(this.#stepIds);
    return [...this.rig.endedJobs.values()]
      .filter((j) => j.batchId !== null && ours.has(j.batchId))
      .map((j) => j.id);
  }
}

/**
 * Finished samples still waiting in carried groups when the run stops: a carried group's samples
 * move into the next step's group (same job ids), so a sample counts here only if no later group
 * delivered or dropped it. With a pilot, most are long shots' pilots (kept, likely never handed out).
 */
function keptSamples(groups: readonly StepGroupView[]): number {
  const settled = new Set<string>();
  const carried = new Set<string>();
  for (const group of groups) {
    const target = group.state === "carried" ? carried : settled;
    for (const member of group.members) if (member.status === "finished") target.add(member.jobId);
  }
  return [...carried].filter((id) => !settled.has(id)).length;
}
