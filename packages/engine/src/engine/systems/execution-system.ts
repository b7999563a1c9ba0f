import { isTerminalStatus, type TStage } from "@raas/shared";
import { isRestartedFromInit } from "../../lifecycle/failure-classifier";
import { type LiveJob, newLiveJob, runCleanups } from "../../lifecycle/live-job";
import { runStage, type StageOutcome } from "../../lifecycle/stage-executor";
import { createRecorder } from "../../lifecycle/trajectory-recorder";
import type { Lease } from "../../ports/job-queue.port";
import type { EvalOutcome } from "../../ports/task-handler.port";
import { retryWhileUnreachable } from "../../store-health/store-retry";
import type { EngineContext } from "../engine-context";
import type { EventSystem, StageFinishedEvent } from "./event-system";
import { HeldSandboxSweep } from "./held-sandbox-sweep";
import type { RecoverySystem } from "./recovery-system";
import type { TransitionSystem } from "./transition-system";

/** How long a stage item whose job could not be read in a store outage waits before it goes back, in ms. */
const STORE_OUTAGE_RETRY_MS = 2_000;

/**
 * Runs leased stages. The job is this engine's live copy when it moved it last, else it is read
 * from the store; RUN and EVAL need the sandbox the handoff names to be held here (their queue
 * items are addressed to this worker), or the job restarts from INIT. Each stage's outcome is
 * one transition; the next stage is queued once that transition is stored.
 */
export class ExecutionSystem {
  readonly #ctx: EngineContext;
  readonly #moves: TransitionSystem;
  readonly #events: EventSystem;
  readonly #recovery: RecoverySystem;
  readonly #heldSweep: HeldSandboxSweep;

  constructor(ctx: EngineContext, moves: TransitionSystem, events: EventSystem, recovery: RecoverySystem) {
    this.#ctx = ctx;
    this.#moves = moves;
    this.#events = events;
    this.#recovery = recovery;
    this.#heldSweep = new HeldSandboxSweep(ctx, moves);
  }

  async execute(lease: Lease): Promise<void> {
    const { queue, workerId, clock } = this.#ctx;
    const { jobId, stage } = lease.item;
    let live: LiveJob | null;
    try {
      live = await this.#take(jobId, stage);
    } catch (error) {
      if (!this.#ctx.storeHealth.reportFailure(error)) throw error;
      // The store is unreachable (a restart, a failover): this slot waits a moment, then the
      // item goes back to the queue to be taken again, rather than failing or waiting out its
      // lease. The wait stays in the slot rather than in a delayed nack: a nack that freed the
      // slot at once would let it take the next item, meet the same outage, and so churn
      // through the whole queue, one failed store read per item, for as long as the outage lasts.
      await new Promise<void>((resolve) => clock.setTimer(resolve, STORE_OUTAGE_RETRY_MS));
      await queue.nack(lease, 0);
      return;
    }
    if (!live) {
      await queue.ack(lease);
      return;
    }
    if (stage !== "init" && !this.#attachSandbox(live)) {
      await queue.ack(lease);
      const where = live.handoff
        ? `sandbox ${live.handoff.sandboxId} on worker ${live.handoff.workerId}`
        : "no sandbox";
      await this.#recovery.restart(
        live,
        `${stage} was handed ${where}, which worker ${workerId} does not hold`,
      );
      return;
    }
    const startedAtMs = clock.now();
    void this.#moves.move(
      live,
      { type: "activate" },
      stage === "init" ? { workerId, sandboxId: null } : undefined,
    );
    const { outcome, lease: lastLease } = await this.#run(live, stage, lease);
    const durationMs = clock.now() - startedAtMs;
    if (live.superseded) {
      // Another process moved the job while it ran here: let the queue re-deliver the item to be
      // judged on the stored state (usually dropped there).
      await queue.nack(lastLease, 0);
      return;
    }
    if (outcome.type === "shutdown") {
      await queue.ack(lastLease);
      return;
    }
    if (outcome.type === "preempted") {
      await queue.ack(lastLease);
      await this.#requeuePreempted(live, stage);
      return;
    }
    if (
      outcome.type === "failed" &&
      isRestartedFromInit(outcome.failure) &&
      !isTerminalStatus(live.record.status)
    ) {
      // Acked first: the INIT item queued again must not be the one this ack removes.
      await queue.ack(lastLease);
      await this.#restartFromInit(live, stage, outcome.failure.message);
      this.#events.stageFinished({ jobId, stage, durationMs, outcome: outcome.failure.kind });
      return;
    }
    const result = this.#settle(live, stage, outcome);
    await queue.ack(lastLease);
    this.#events.stageFinished({ jobId, stage, durationMs, outcome: result });
  }

  /**
   * The job to run, if it is still queued for `stage`: the live copy this engine moved it with
   * (its activation is a compare-and-set, so a copy another process moved on loses there and the
   * stage is aborted), else the stored one.
   */
  async #take(jobId: string, stage: TStage): Promise<LiveJob | null> {
    const { jobs, store, handlers, clock, logger, stats } = this.#ctx;
    const known = jobs.live.get(jobId);
    if (known) return known.record.status === "queued" && known.record.stage === stage ? known : null;
    const stored = await store.readJob(jobId);
    if (stored?.record.status !== "queued" || stored.record.stage !== stage) return null;
    let payload: unknown;
    try {
      payload = handlers.parsePayload(stored.record.kind, stored.record.payload);
    } catch (error) {
      logger?.error({ jobId, err: String(error) }, "cannot run job: handler or payload invalid");
      return null;
    }
    const live = newLiveJob(stored.record, payload, clock.now(), stored);
    jobs.live.set(jobId, live);
    stats.moved(null, { status: "queued", stage, failureKind: null }, clock.now());
    return live;
  }

  /** Hands the job the outputs of its earlier stages, when this worker holds its sandbox. */
  #attachSandbox(live: LiveJob): boolean {
    const { handoff } = live;
    if (handoff?.workerId !== this.#ctx.workerId) return false;
    const held = this.#ctx.sandboxes.get(handoff.sandboxId);
    if (held?.jobId !== live.record.id) return false;
    live.outputs = held.outputs;
    live.jobCleanups = held.jobCleanups;
    return true;
  }

  async #run(live: LiveJob, stage: TStage, lease: Lease): Promise<{ outcome: StageOutcome; lease: Lease }> {
    const { queue, leaseMs, logger, handlers, timeouts, clock, writer, stats } = this.#ctx;
    const jobId = live.record.id;
    let current = lease;
    const extender = setInterval(() => {
      queue.extend(current, leaseMs).then(
        (renewed) => {
          current = renewed;
        },
        (error: unknown) => logger?.warn({ jobId, err: String(error) }, "lease extension failed"),
      );
    }, leaseMs / 2);
    extender.unref();
    const outcome = await runStage({
      live,
      stage,
      handler: handlers.get(live.record.kind),
      timeoutMs: live.record.timeoutsMs?.[stage] ?? (timeouts.get(stage) as number),
      clock,
      clockHold: this.#ctx.clockHolds.of(live.record.policyId),
      record: createRecorder(jobId, writer, clock, (tokenBreak) => {
        stats.tokenBreak();
        logger?.warn(
          { jobId, tokenBreak },
          "stored trajectory is not token-exact; its export will say tokenExact: false",
        );
      }),
      ...(logger ? { logger } : {}),
    });
    clearInterval(extender);
    return { outcome, lease: current };
  }

  /**
   * Higher-priority work took the slot: the sandbox is closed and the job queued for INIT again
   * (not counted as an attempt); the partial trajectory of this attempt is dropped. Finished jobs
   * are never preempted (only INIT and RUN are), so no finished trajectory is lost.
   */
  async #requeuePreempted(live: LiveJob, stage: TStage): Promise<void> {
    const { sandboxes, workerId, store, queue, logger, inference } = this.#ctx;
    const { id } = live.record;
    const closing = live.handoff?.workerId === workerId ? sandboxes.close(live.handoff.sandboxId) : [];
    for (const error of [...(await runCleanups(live.jobCleanups)), ...(await closing)]) {
      logger?.warn({ jobId: id, err: String(error) }, "cleanup of a preempted job failed");
    }
    inference?.releaseJob(id);
    live.outputs = {};
    live.jobCleanups = [];
    if (!(await this.#moves.move(live, { type: "restart", preempted: true }, null))) return;
    await retryWhileUnreachable(() => store.deleteTrajectory(id), {
      health: this.#ctx.storeHealth,
      clock: this.#ctx.clock,
    });
    await queue.enqueue({ jobId: id, stage: "init", priority: live.record.priority });
    logger?.info({ jobId: id, stage }, "preempted by higher-priority work; queued for INIT again");
  }

  /**
   * An infrastructure failure of the sandbox at any stage (one that would not start, a disk that
   * filled under it): what the attempt left is cleaned up — the sandbox this worker holds for the
   * job closed, its inference released — and the job queued for INIT again, for any worker
   * (attempts + 1), or failed as `sandbox` once it used up `maxAttempts`. A worker whose sandboxes
   * keep failing stops taking INIT work, so the restart lands on another.
   */
  async #restartFromInit(live: LiveJob, stage: TStage, reason: string): Promise<void> {
    const { logger, inference, sandboxes, workerId } = this.#ctx;
    const { id } = live.record;
    const closing = live.handoff?.workerId === workerId ? sandboxes.close(live.handoff.sandboxId) : [];
    for (const error of [...(await runCleanups(live.jobCleanups)), ...(await closing)]) {
      logger?.warn({ jobId: id, stage, err: String(error) }, "cleanup of a failed attempt failed");
    }
    inference?.releaseJob(id);
    const outcome = await this.#recovery.restart(live, reason);
    logger?.info(
      { jobId: id, stage, attempts: live.record.attempts, outcome, reason },
      `${stage} failed on this worker's sandbox`,
    );
  }

  /**
   * The stage's outcome as a transition; the next stage is queued (to this worker) once stored.
   * Returns the outcome the stage-finished event reports.
   */
  #settle(
    live: LiveJob,
    stage: TStage,
    outcome: Exclude<StageOutcome, { type: "shutdown" } | { type: "preempted" }>,
  ): StageFinishedEvent["outcome"] {
    const { workerId, sandboxes, queue, logger } = this.#ctx;
    if (isTerminalStatus(live.record.status)) return this.#settleRaced(live, stage, outcome);
    if (outcome.type === "failed") {
      const { kind, message, label, result } = outcome.failure;
      if (kind === "cancelled") void this.#moves.move(live, { type: "cancel", message });
      else {
        const { failureReward } = this.#ctx.handlers.get(live.record.kind);
        void this.#moves.move(live, {
          type: "fail",
          kind,
          message,
          ...(failureReward !== undefined ? { failureReward } : {}),
          ...(label !== undefined ? { label } : {}),
          ...(result !== undefined ? { result } : {}),
        });
      }
      return kind;
    }
    if (stage === "eval") {
      const { reward, result, turnRewards } = outcome.value as EvalOutcome;
      void this.#moves.move(live, {
        type: "complete",
        reward,
        result,
        ...(turnRewards !== undefined ? { turnRewards } : {}),
      });
      return "ok";
    }
    live.outputs[stage] = outcome.value;
    let handoff = live.handoff;
    if (stage === "init") {
      const sandboxId = `${workerId}/${live.record.id}/${live.record.attempts}`;
      sandboxes.hold(sandboxId, {
        jobId: live.record.id,
        outputs: live.outputs,
        jobCleanups: live.jobCleanups,
      });
      handoff = { workerId, sandboxId };
      this.#heldSweep.arm();
    }
    const { id, priority } = live.record;
    this.#moves
      .move(live, { type: "enqueue" }, stage === "init" ? handoff : undefined)
      .then((won) => {
        if (won) return queue.enqueue({ jobId: id, stage: live.record.stage as TStage, priority, workerId });
      })
      .catch((error: unknown) =>
        logger?.error({ jobId: id, err: String(error) }, "queueing the next stage failed"),
      );
    return "ok";
  }

  /**
   * A cancel reached the job between its stage's end and the stage's transition (the stage had
   * no controller left to abort): the cancel is stored and the stage's outcome is dropped. Normal
   * under dynamic sampling, so nothing is an error here; what the stage handed over for the job's
   * end (INIT's sandbox) is closed now rather than handed on.
   */
  #settleRaced(
    live: LiveJob,
    stage: TStage,
    outcome: Exclude<StageOutcome, { type: "shutdown" } | { type: "preempted" }>,
  ): StageFinishedEvent["outcome"] {
    const { logger } = this.#ctx;
    const { id, status } = live.record;
    logger?.debug(
      { jobId: id, stage, status, outcome: outcome.type === "ok" ? "ok" : outcome.failure.kind },
      "the job ended while its stage finished; the stage's outcome is dropped",
    );
    void runCleanups(live.jobCleanups).then((errors) => {
      for (const error of errors) logger?.warn({ jobId: id, err: String(error) }, "job cleanup failed");
    });
    return live.record.failure?.kind ?? "ok";
  }
}
