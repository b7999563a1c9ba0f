import { isTerminalStatus, STAGES, type TStage } from "@raas/shared";
import { type LiveJob, newLiveJob } from "../../lifecycle/live-job";
import type { JobRecord, StoredJob } from "../../ports/job-record.types";
import { retryWhileUnreachable } from "../../store-health/store-retry";
import type { EngineContext } from "../engine-context";
import type { TransitionSystem } from "./transition-system";

/** What recovery needs of fair-share admission (`AdmissionSystem`), when runs share the service. */
export interface AdmissionHooks {
  /** Holds a job queued for INIT until the scheduler releases it. */
  admit(record: JobRecord): void;
  /** Follows a job an earlier process released. */
  adopt(record: JobRecord): void;
  /** True while the job waits in admission, not yet released. */
  isHolding(jobId: string): boolean;
}

export type RestartOutcome = "restarted" | "failed" | "lost";

/** What `recoverWorker` did with the jobs a lost worker held. */
export interface WorkerRecovery {
  /** Jobs queued for INIT again (attempts + 1), to run on any worker. */
  restarted: string[];
  /** Jobs that had used up `maxAttempts`: failed as `sandbox`. */
  failed: string[];
}

/**
 * Jobs whose sandbox is gone start again from INIT, elsewhere: after a restart of this process,
 * when a lease names a sandbox this process does not hold, and when a worker is lost
 * (`recoverWorker`). Each restart is a compare-and-set, so a job is restarted once however many
 * processes try; after `maxAttempts` starts it fails as an infrastructure (`sandbox`) failure.
 */
export class RecoverySystem {
  readonly #ctx: EngineContext;
  readonly #moves: TransitionSystem;
  readonly #admission: AdmissionHooks | null;

  constructor(ctx: EngineContext, moves: TransitionSystem, admission: AdmissionHooks | null = null) {
    this.#ctx = ctx;
    this.#moves = moves;
    this.#admission = admission;
  }

  /**
   * At start: re-queues unfinished jobs. `all` (one process owns the store) takes every one;
   * `unheld` only those no worker holds yet and those held under this engine's own worker id.
   *
   * With fair-share admission, a job queued for INIT goes back through admission unless the queue
   * still holds its item (an earlier process released it: it stays queued, and workers go on with
   * it meanwhile); every other unfinished job is adopted as released. Jobs are adopted before any
   * is admitted, so the window counts what is out already and a restart releases at most a window.
   */
  async recoverAtStart(scope: "all" | "unheld"): Promise<void> {
    const { store, handlers, clock, jobs, stats, logger, workerId, queue } = this.#ctx;
    const admission = this.#admission;
    const toAdmit: LiveJob[] = [];
    for (const record of await store.listUnfinishedJobs()) {
      const stored = await store.readJob(record.id);
      if (!stored || isTerminalStatus(stored.record.status)) continue;
      const holder = stored.handoff?.workerId;
      if (scope === "unheld" && holder !== undefined && holder !== workerId) {
        admission?.adopt(stored.record);
        continue;
      }
      let payload: unknown;
      try {
        payload = handlers.parsePayload(record.kind, record.payload);
      } catch (error) {
        logger?.error(
          { jobId: record.id, err: String(error) },
          "cannot recover job: handler or payload invalid",
        );
        continue;
      }
      const live = newLiveJob(stored.record, payload, clock.now(), stored);
      jobs.live.set(record.id, live);
      stats.moved(null, { status: record.status, stage: record.stage, failureKind: null }, clock.now());
      const { status, stage } = live.record;
      if (admission && (status === "submitted" || (status === "queued" && stage === "init"))) {
        if (status === "submitted" && !(await this.#moves.move(live, { type: "enqueue" }))) continue;
        if (await queue.holds(record.id, "init")) admission.adopt(live.record);
        else toAdmit.push(live);
      } else {
        await this.#requeue(live);
        admission?.adopt(live.record);
      }
      logger?.info(
        { jobId: record.id, status: record.status, stage: record.stage },
        "recovered unfinished job",
      );
    }
    for (const live of toAdmit) admission?.admit(live.record);
  }

  /**
   * Restarts elsewhere every job a lost worker held: takes the queue items addressed to it and its
   * unfinished jobs from the store, and queues each for INIT (or fails it after `maxAttempts`).
   */
  async recoverWorker(lostWorkerId: string): Promise<WorkerRecovery> {
    const { queue, store, writer, clock, logger } = this.#ctx;
    const items = await queue.takeAddressedTo(lostWorkerId);
    await writer.flush();
    const held: StoredJob[] = await store.listJobsHeldBy(lostWorkerId);
    const recovery: WorkerRecovery = { restarted: [], failed: [] };
    for (const stored of held) {
      const live = newLiveJob(stored.record, null, clock.now(), stored, false);
      const outcome = await this.restart(live, `its sandbox was lost with worker ${lostWorkerId}`);
      if (outcome === "restarted") recovery.restarted.push(stored.record.id);
      if (outcome === "failed") recovery.failed.push(stored.record.id);
    }
    logger?.info(
      { workerId: lostWorkerId, queueItems: items.length, ...recovery },
      "recovered the jobs of a lost worker",
    );
    return recovery;
  }

  /**
   * Queues again the item of every job stored as waiting in a queue (`queued`): INIT shared,
   * RUN/EVAL addressed to the worker its handoff names. For a queue that lost its items (Redis
   * restarted without persistence, a failed enqueue): the Redis adapter keeps one waiting item per
   * job and stage (an item still waiting is not doubled), and a stale delivery is dropped (a stage
   * runs only for a job stored queued for it; activating it is a compare-and-set). Only the items
   * of `stages` (default every stage). Returns the items queued.
   */
  async requeueQueued(stages: readonly TStage[] = STAGES): Promise<number> {
    const { store, queue, writer } = this.#ctx;
    await writer.flush();
    let requeued = 0;
    for (const record of await store.listUnfinishedJobs()) {
      const { id, status, stage, priority } = record;
      if (status !== "queued" || stage === null || !stages.includes(stage)) continue;
      // Held back by fair-share admission: it has no item to lose, and gets one when released.
      if (this.#admission?.isHolding(id)) continue;
      let workerId: string | null = null;
      if (stage !== "init") {
        const stored = await store.readJob(id);
        if (stored?.record.status !== "queued" || stored.record.stage !== stage) continue;
        workerId = stored.handoff?.workerId ?? null;
      }
      await queue.enqueue({ jobId: id, stage, priority, workerId });
      requeued += 1;
    }
    return requeued;
  }

  /** Queues a job for INIT again (attempts + 1), or fails it as `sandbox` after `maxAttempts`. */
  async restart(live: LiveJob, reason: string): Promise<RestartOutcome> {
    const { maxAttempts, store, queue } = this.#ctx;
    const { id, attempts, priority } = live.record;
    if (attempts >= maxAttempts) {
      if (live.record.status !== "active") void this.#moves.move(live, { type: "activate" });
      const failed = await this.#moves.move(live, {
        type: "fail",
        kind: "sandbox",
        message: `${reason}; not restarted again after ${attempts} attempt(s) (maxAttempts ${maxAttempts})`,
      });
      return failed ? "failed" : "lost";
    }
    live.outputs = {};
    live.jobCleanups = [];
    if (!(await this.#moves.move(live, { type: "restart" }, null))) return "lost";
    // The earlier attempt's turns would mix with the new attempt's (same indexes): drop them.
    // The job is already queued for INIT in the store: an outage here is waited out, or the
    // INIT item would never be enqueued and the job would sit queued for good.
    await retryWhileUnreachable(() => store.deleteTrajectory(id), {
      health: this.#ctx.storeHealth,
      clock: this.#ctx.clock,
    });
    await queue.enqueue({ jobId: id, stage: "init", priority });
    return "restarted";
  }

  async #requeue(live: LiveJob): Promise<void> {
    const { status, stage, id, priority } = live.record;
    if (status === "submitted") {
      if (await this.#moves.move(live, { type: "enqueue" })) {
        await this.#ctx.queue.enqueue({ jobId: id, stage: "init", priority });
      }
    } else if (status === "queued" && stage === "init") {
      await this.#ctx.queue.enqueue({ jobId: id, stage: "init", priority });
    } else {
      await this.restart(live, "the process that ran it stopped");
    }
  }
}
