import { type Clock, type EngineLogger, systemClock, type TrajectoryRetention } from "@raas/engine";
import type { BatchStore, GroupRecord, RunRecord } from "../ports/batch-store.port";
import { isGroupInUse, memberJobIds, stepsDueForArchive } from "./retention-policy";

export interface RetentionSystemOptions {
  /** Runs, steps and groups (the batch system's store). */
  store: BatchStore;
  /** Where trajectories go (`TrajectoryArchive` of `@raas/db`). */
  archive: TrajectoryRetention;
  /** How often every run's retention policy is applied, in ms. Default 60_000. */
  everyMs?: number;
  /** Most runs looked at per pass, newest first. Default 1_000. */
  maxRuns?: number;
  clock?: Clock;
  logger?: EngineLogger;
}

/** What one pass moved. */
export interface RetentionPass {
  /** Steps whose trajectories are all archived now (this pass or an earlier one). */
  archivedSteps: string[];
  archivedJobs: number;
  archivedBytes: number;
}

/**
 * Applies each run's retention policy (`TRunRetention`) on a timer: the trajectories of finished
 * steps it names move to the run's archive, freeing the store during a long run. Never touches
 * what is in use: a running step's jobs, unfinished jobs, or finished samples carried into a step
 * the policy keeps or still waiting for the next step. Idempotent, so a pass after a restart (or a
 * second server) only finds what is left; steps fully archived are remembered to skip them later.
 */
export class RetentionSystem {
  readonly #store: BatchStore;
  readonly #archive: TrajectoryRetention;
  readonly #everyMs: number;
  readonly #maxRuns: number;
  readonly #clock: Clock;
  readonly #logger: EngineLogger | undefined;
  /** Steps whose trajectories are all archived: never looked at again by this process. */
  readonly #archivedSteps = new Set<string>();
  #cancelTimer: (() => void) | null = null;
  #running: Promise<RetentionPass> | null = null;
  #stopped = false;

  constructor(options: RetentionSystemOptions) {
    this.#store = options.store;
    this.#archive = options.archive;
    this.#everyMs = options.everyMs ?? 60_000;
    this.#maxRuns = options.maxRuns ?? 1_000;
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger;
  }

  start(): void {
    if (this.#cancelTimer || this.#stopped) return;
    this.#schedule();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    await this.#running?.catch(() => undefined);
  }

  /** One pass over every run with a retention policy. Passes never overlap. */
  runOnce(): Promise<RetentionPass> {
    const pass = (this.#running ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => this.#pass())
      .finally(() => {
        if (this.#running === pass) this.#running = null;
      });
    this.#running = pass;
    return pass;
  }

  #schedule(): void {
    this.#cancelTimer = this.#clock.setTimer(() => {
      this.runOnce()
        .catch((error: unknown) =>
          this.#logger?.warn({ err: String(error) }, "applying run retention failed"),
        )
        .finally(() => {
          if (!this.#stopped) this.#schedule();
        });
    }, this.#everyMs);
  }

  async #pass(): Promise<RetentionPass> {
    const total: RetentionPass = { archivedSteps: [], archivedJobs: 0, archivedBytes: 0 };
    for (const run of await this.#store.listRuns(this.#maxRuns)) {
      if (run.retention === null || this.#stopped) continue;
      try {
        const pass = await this.#applyTo(run);
        total.archivedSteps.push(...pass.archivedSteps);
        total.archivedJobs += pass.archivedJobs;
        total.archivedBytes += pass.archivedBytes;
      } catch (error) {
        // One run's failure (its archive file unwritable, say) must not hold back the others.
        this.#logger?.warn({ runId: run.id, err: String(error) }, "applying a run's retention failed");
      }
    }
    return total;
  }

  async #applyTo(run: RunRecord): Promise<RetentionPass> {
    const result: RetentionPass = { archivedSteps: [], archivedJobs: 0, archivedBytes: 0 };
    if (run.retention === null) return result;
    const steps = await this.#store.listSteps(run.id);
    const due = new Set(stepsDueForArchive(run.retention, steps, this.#clock.now()));
    const pending = steps.filter((step) => due.has(step.id) && !this.#archivedSteps.has(step.id));
    if (pending.length === 0) return result;
    // Samples still in use: groups of steps the policy keeps (or still running), and carried groups.
    const inUse: GroupRecord[] = await this.#store.listCarriedGroups(run.id);
    for (const step of steps) if (!due.has(step.id)) inUse.push(...(await this.#store.listGroups(step.id)));
    const groupsByStep = new Map<string, GroupRecord[]>();
    for (const step of pending) {
      const groups = await this.#store.listGroups(step.id);
      groupsByStep.set(step.id, groups);
      inUse.push(...groups.filter((group) => isGroupInUse(group, due)));
    }
    const keep = new Set(memberJobIds(inUse.filter((group) => isGroupInUse(group, due))));
    const members = memberJobIds([...groupsByStep.values()].flat());
    const outcome = await this.#archive.archiveJobs(run.id, {
      stepIds: pending.map((step) => step.id),
      jobIds: members.filter((id) => !keep.has(id)),
      keepJobIds: [...keep],
    });
    result.archivedJobs = outcome.archivedJobs;
    result.archivedBytes = outcome.archivedBytes;
    // A step is done once none of its jobs is held back or unfinished; else a later pass takes the rest.
    const unfinishedSteps = new Set(outcome.unfinishedJobs.map((job) => job.stepId));
    const unfinished = new Set(outcome.unfinishedJobs.map((job) => job.jobId));
    for (const step of pending) {
      const ids = memberJobIds(groupsByStep.get(step.id) ?? []);
      if (unfinishedSteps.has(step.id) || ids.some((id) => keep.has(id) || unfinished.has(id))) continue;
      this.#archivedSteps.add(step.id);
      result.archivedSteps.push(step.id);
    }
    if (outcome.archivedJobs > 0) {
      this.#logger?.info(
        {
          runId: run.id,
          steps: pending.length,
          archivedJobs: outcome.archivedJobs,
          archivedBytes: outcome.archivedBytes,
        },
        "finished steps' trajectories archived (run retention)",
      );
    }
    return result;
  }
}
