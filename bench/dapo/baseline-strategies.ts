// The two trainer-side baselines, run through the same engine as plain labelled jobs:
// wait-for-all-then-filter (DAPO in the trainer) and ProRL-style early termination.
import type { TJob } from "@raas/shared";
import { type BaselineGroup, baselineLedger, type JobOutcome, judgeGroup } from "./dapo-ledger";
import type { DapoRig } from "./dapo-rig";
import {
  baselineGroupRequests,
  type DapoPlan,
  type StepTiming,
  type StrategyResult,
  type StrategyRunner,
  TaskStream,
} from "./dapo-strategy.types";
import type { DapoTask } from "./dapo-workload";

function jobOutcome(job: TJob, generatedTokens: number): JobOutcome {
  const { timings } = job;
  return {
    jobId: job.id,
    status: job.status as JobOutcome["status"],
    trainable: job.trainable,
    reward: job.reward,
    rolloutMs: (timings.initMs ?? 0) + (timings.runMs ?? 0) + (timings.evalMs ?? 0),
    generatedTokens,
  };
}

interface SubmittedGroup extends BaselineGroup {
  fate: BaselineGroup["fate"];
  isSettled: boolean;
}

/** What both baselines share: the task stream, rounds of B groups, hand-out and bookkeeping. */
abstract class BaselineRunner implements StrategyRunner {
  protected readonly stream: TaskStream;
  protected readonly groups: SubmittedGroup[] = [];
  #tokensAtStart: number | null = null;

  constructor(
    readonly name: string,
    protected readonly rig: DapoRig,
    protected readonly plan: DapoPlan,
    tasks: readonly DapoTask[],
  ) {
    this.stream = new TaskStream(tasks);
  }

  abstract runStep(index: number): Promise<void>;

  async step(index: number): Promise<void> {
    this.#tokensAtStart ??= (await this.rig.simulator.snapshot()).generationTokens;
    await this.runStep(index);
  }

  /** Submits B groups of the next tasks as one round (batch id `batchId`). */
  protected async submitRound(batchId: string): Promise<SubmittedGroup[]> {
    const { plan } = this;
    const draws = Array.from({ length: plan.batchGroups }, () => this.stream.take());
    const requests = draws.map((draw, g) =>
      baselineGroupRequests(draw, `${batchId}-g${g}`, batchId, plan.groupSize),
    );
    const results = await this.rig.engine.submitJobs(requests.flat());
    const groups = requests.map((_, g) => ({
      jobIds: results.slice(g * plan.groupSize, (g + 1) * plan.groupSize).map((r) => r.job.id),
      fate: "dropped" as const,
      isSettled: false,
    }));
    this.groups.push(...groups);
    return groups;
  }

  /** The verdict on a group from the jobs that ended so far. */
  protected judge(group: SubmittedGroup) {
    return judgeGroup(
      group.jobIds.map((id) => {
        const job = this.rig.endedJobs.get(id);
        // Tokens do not matter for a verdict; the ledger reads them afterwards.
        return job ? jobOutcome(job, 0) : undefined;
      }),
    );
  }

  /** The trainer reads a kept group's trajectories (as `nextGroups` builds them for ours). */
  protected async handOut(group: SubmittedGroup): Promise<void> {
    await Promise.all(group.jobIds.map((id) => this.rig.engine.exportTrajectory(id)));
  }

  async finish(timing: StepTiming): Promise<StrategyResult> {
    // Cancelled jobs end a little after the stop: their events are needed for the ledger.
    await this.rig.waitForJobs(this.groups.flatMap((g) => g.jobIds));
    const outcomes = new Map<string, JobOutcome>();
    for (const job of this.rig.endedJobs.values())
      outcomes.set(job.id, jobOutcome(job, await this.rig.storedTokens(job.id)));
    const ledger = baselineLedger(this.groups, outcomes);
    return {
      name: this.name,
      ...timing,
      informative: this.groups.filter((g) => g.fate === "delivered").length,
      groupsStarted: this.groups.length,
      jobsSubmitted: this.groups.reduce((sum, g) => sum + g.jobIds.length, 0),
      ledger,
      finishedThrownAway: ledger.thrownAway.jobs,
      keptForLater: 0,
      simulatorTokens: (await this.rig.simulator.snapshot()).generationTokens - (this.#tokensAtStart ?? 0),
      storedTokens: [...outcomes.values()].reduce((sum, o) => sum + o.generatedTokens, 0),
    };
  }
}

/**
 * Trainer-side DAPO: each round submits B groups and waits for all of them, keeps informative
 * ones up to m and repeats with new tasks until the step has m; informative groups past m are
 * truncated (as DAPO recipes cut the batch to its size), zero-variance ones filtered.
 */
export class WaitForAllRunner extends BaselineRunner {
  constructor(rig: DapoRig, plan: DapoPlan, tasks: readonly DapoTask[]) {
    super("wait-for-all", rig, plan, tasks);
  }

  async runStep(index: number): Promise<void> {
    let collected = 0;
    for (let round = 0; collected < this.plan.groupsPerStep; round += 1) {
      const groups = await this.submitRound(`wfa-s${index}-r${round}`);
      await this.rig.waitForJobs(groups.flatMap((g) => g.jobIds));
      for (const group of groups) {
        const verdict = this.judge(group);
        group.isSettled = true;
        if (verdict === "informative") {
          group.fate = collected < this.plan.groupsPerStep ? "delivered" : "surplus";
          if (group.fate === "delivered") {
            collected += 1;
            await this.handOut(group);
          }
        } else group.fate = verdict === "uninformative" ? "zero-variance" : "failed";
      }
    }
  }
}

/**
 * ProRL-style early termination: each round submits B groups; as soon as m informative groups
 * are complete, every job still running or queued is cancelled and unfinished groups are
 * dropped with their finished trajectories. A round that ends short of m is followed by another.
 */
export class ProrlStyleRunner extends BaselineRunner {
  constructor(rig: DapoRig, plan: DapoPlan, tasks: readonly DapoTask[]) {
    super("ProRL-style", rig, plan, tasks);
  }

  async runStep(index: number): Promise<void> {
    const wanted = this.plan.groupsPerStep;
    let collected = 0;
    for (let round = 0; collected < wanted; round += 1) {
      const batchId = `prorl-s${index}-r${round}`;
      const groups = await this.submitRound(batchId);
      const byJob = new Map(groups.flatMap((g) => g.jobIds.map((id) => [id, g] as const)));
      const handOuts: Promise<void>[] = [];
      await new Promise<void>((resolve) => {
        const settle = (group: SubmittedGroup) => {
          if (group.isSettled || collected >= wanted) return;
          const verdict = this.judge(group);
          if (verdict === "pending") return;
          group.isSettled = true;
          if (verdict === "informative") {
            group.fate = "delivered";
            collected += 1;
            handOuts.push(this.handOut(group));
          } else group.fate = verdict === "uninformative" ? "zero-variance" : "failed";
        };
        const check = () => {
          if (collected < wanted && !groups.every((g) => g.isSettled)) return;
          stop();
          resolve();
        };
        const stop = this.rig.onJobEnded((job) => {
          const group = byJob.get(job.id);
          if (!group) return;
          settle(group);
          check();
        });
        for (const group of groups) settle(group);
        check();
      });
      if (collected >= wanted) await this.rig.engine.cancel({ batchId });
      await Promise.all(handOuts);
    }
  }
}
