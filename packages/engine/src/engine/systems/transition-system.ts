import { abortFailure, isTerminalStatus } from "@raas/shared";
import { applyTransition, type JobTransition } from "../../lifecycle/job-state-machine";
import { type LiveJob, runCleanups } from "../../lifecycle/live-job";
import type { JobHandoff } from "../../ports/job-record.types";
import type { EngineContext } from "../engine-context";
import type { EventSystem } from "./event-system";

/**
 * Moves jobs: every transition is applied to the in-memory copy at once (so this engine reads its
 * own writes) and stored as a compare-and-set through the group commit. Listeners hear of it only
 * once it is stored. When the store says another process moved the job first, this engine's copy
 * is superseded: its stage is aborted, its sandbox released, and it is forgotten.
 */
export class TransitionSystem {
  readonly #ctx: EngineContext;
  readonly #events: EventSystem;

  constructor(ctx: EngineContext, events: EventSystem) {
    this.#ctx = ctx;
    this.#events = events;
  }

  /**
   * Resolves true once stored; false when another process had moved the job, or when it had
   * already ended here (a cancel that won the race with a stage's end): nothing is stored then.
   */
  move(live: LiveJob, transition: JobTransition, handoff?: JobHandoff | null): Promise<boolean> {
    const { clock, stats, writer, logger } = this.#ctx;
    const before = live.record;
    if (isTerminalStatus(before.status)) {
      logger?.debug(
        { jobId: before.id, status: before.status, transition: transition.type },
        "the job had already ended; the transition is dropped",
      );
      return Promise.resolve(false);
    }
    const nowMs = clock.now();
    const after = applyTransition(before, transition, { nowMs, stateSinceMs: live.stateSinceMs });
    const expectedVersion = live.version;
    live.record = after;
    live.stateSinceMs = nowMs;
    live.version = expectedVersion + 1;
    if (handoff !== undefined) live.handoff = handoff;
    const version = live.version;
    const to = {
      status: after.status,
      stage: after.stage,
      failureKind: after.failure?.kind ?? null,
      failureLabel: after.failure?.label ?? null,
    };
    if (live.tracked) stats.moved(before, to, nowMs);
    else if (isTerminalStatus(after.status)) stats.moved(null, to, nowMs);
    const { id, createdAtMs: _createdAtMs, ...rest } = after;
    return writer.transition({ id, ...rest }, expectedVersion, handoff).then((won) => {
      if (!won) {
        this.supersede(live, `job ${id} was moved by another process`);
        return false;
      }
      this.#events.committed(after, version);
      if (isTerminalStatus(after.status)) void this.#finish(live);
      return true;
    });
  }

  /** Drops this engine's stale copy of a job another process moved: aborts, releases, forgets. */
  supersede(live: LiveJob, reason: string): void {
    if (live.superseded) return;
    live.superseded = true;
    if (live.tracked) this.#ctx.stats.left(live.record);
    this.#ctx.logger?.info({ jobId: live.record.id }, reason);
    live.controller?.abort(abortFailure("shutdown", reason));
    void this.#finish(live);
  }

  async #finish(live: LiveJob): Promise<void> {
    const { jobs, sandboxes, inference, logger } = this.#ctx;
    const id = live.record.id;
    if (jobs.live.get(id) === live) jobs.live.delete(id);
    const closing =
      live.handoff?.workerId === this.#ctx.workerId ? sandboxes.close(live.handoff.sandboxId) : null;
    try {
      inference?.releaseJob(id);
    } catch (error) {
      logger?.warn({ jobId: id, err: String(error) }, "releasing the job's backend failed");
    }
    const errors = [...(await runCleanups(live.jobCleanups)), ...((await closing) ?? [])];
    for (const error of errors) logger?.warn({ jobId: id, err: String(error) }, "job cleanup failed");
  }
}
