import {
  abortFailure,
  formatIssues,
  requestFailure,
  STAGES,
  type TCancelRequest,
  type TEngineStats,
  type TJob,
  type TJobListRequest,
  type TJobListResponse,
  type TPolicyState,
  type TStage,
  type TSubmitJobRequest,
  type TToolCall,
  type TTrajectoryExport,
  type TTrajectoryExportPage,
  type TTurn,
  ZCancelRequest,
  ZJobListRequest,
} from "@raas/shared";
import { createEngineContext, type EngineContext, poolSettings } from "./engine/engine-context";
import { AdmissionSystem, type FlowSnapshot } from "./engine/systems/admission-system";
import { CancellationSystem } from "./engine/systems/cancellation-system";
import { EventSystem, type StageFinishedEvent } from "./engine/systems/event-system";
import { ExecutionSystem } from "./engine/systems/execution-system";
import { RecoverySystem, type WorkerRecovery } from "./engine/systems/recovery-system";
import { SubmissionSystem } from "./engine/systems/submission-system";
import { TransitionSystem } from "./engine/systems/transition-system";
import type {
  EngineOptions,
  JobEventListener,
  SubmitOptions,
  SubmitResult,
  WaitResult,
} from "./engine.types";
import { DEFAULT_STOP_GRACE_MS } from "./engine-defaults";
import { TrajectoryExporter } from "./export/trajectory-exporter";
import type { HandlerRegistry } from "./handler-registry";
import { runCleanups } from "./lifecycle/live-job";
import { StagePool } from "./lifecycle/stage-pool";
import { waitForJobs } from "./lifecycle/wait-for-jobs";
import type { StoredJob } from "./ports/job-record.types";
import { withFairShareDefaults } from "./scheduling/fair-share-options";
import { type JobFlow, jobFlowOf } from "./scheduling/job-flow";

export type { FlowSnapshot, StageFinishedEvent, WorkerRecovery };

/**
 * The headless rollout engine: accepts jobs, moves each through INIT → RUN → EVAL on three
 * independent stage pools, stores every transition as a compare-and-set (group commit), and
 * reports events and stats. A thin façade over its systems (`engine/systems/`): submission,
 * execution, cancellation, recovery, events, each over the shared `EngineContext`.
 */
export class RolloutEngine {
  readonly #ctx: EngineContext;
  readonly #ownsBus: boolean;
  readonly #pools = new Map<TStage, StagePool>();
  readonly #events: EventSystem;
  readonly #submission: SubmissionSystem;
  readonly #cancellation: CancellationSystem;
  readonly #recovery: RecoverySystem;
  /** Null unless `fairShare` was given: then new jobs are admitted to INIT in fair order. */
  readonly #admission: AdmissionSystem | null;
  readonly #exporter: TrajectoryExporter;
  readonly #recoverAtStart: "all" | "unheld";
  #started = false;

  constructor(options: EngineOptions) {
    this.#ownsBus = options.bus === undefined;
    this.#recoverAtStart = options.recoverAtStart ?? "all";
    this.#ctx = createEngineContext(options);
    const ctx = this.#ctx;
    this.#events = new EventSystem(ctx, (job) => {
      // Another process moved a job this engine holds a copy of but is not running: drop the copy.
      const live = ctx.jobs.live.get(job.id);
      if (live && !live.controller) moves.supersede(live, `job ${job.id} moved on another worker`);
    });
    const moves: TransitionSystem = new TransitionSystem(ctx, this.#events);
    this.#cancellation = new CancellationSystem(ctx, moves);
    this.#admission = options.fairShare
      ? new AdmissionSystem(
          ctx,
          this.#events,
          withFairShareDefaults(options.fairShare),
          (id) => this.#cancellation.preemptOne(id),
          () => this.#ownAdmissionSlots(),
        )
      : null;
    const admission = this.#admission;
    this.#submission = new SubmissionSystem(
      ctx,
      this.#events,
      admission ? (record) => admission.admit(record) : undefined,
    );
    this.#recovery = new RecoverySystem(ctx, moves, admission);
    const execution = new ExecutionSystem(ctx, moves, this.#events, this.#recovery);
    this.#exporter = new TrajectoryExporter({
      store: options.store,
      flush: () => ctx.writer.flush(),
      findJob: async (id) => (await this.#find(id))?.record ?? null,
    });
    for (const { stage, concurrency } of poolSettings(options)) {
      this.#pools.set(
        stage,
        new StagePool({
          stage,
          queue: options.queue,
          concurrency,
          leaseMs: ctx.leaseMs,
          workerId: ctx.workerId,
          ...(options.heldImages && { heldImages: options.heldImages }),
          execute: (lease) => execution.execute(lease),
          ...(options.logger ? { logger: options.logger } : {}),
        }),
      );
    }
    options.inference?.resolveFlowsWith?.((jobId) => this.flowOfJob(jobId));
    options.inference?.resolvePoliciesWith?.((jobId) => this.policyOfJob(jobId));
  }

  /** This process's worker id (RUN and EVAL of the jobs it initialised are addressed to it). */
  get workerId(): string {
    return this.#ctx.workerId;
  }

  /** Sandboxes (stage outputs) this engine holds for jobs between their stages. */
  get heldSandboxes(): number {
    return this.#ctx.sandboxes.size;
  }

  /** Seeds counters from the store, re-queues unfinished jobs (`recoverAtStart`), starts the pools. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    this.#ctx.stats.seed(await this.#ctx.store.totals());
    await this.#events.start();
    await this.#cancellation.start();
    this.#admission?.start();
    // The window must know the workers' capacity before recovery re-admits held jobs.
    await this.#admission?.refreshCapacity();
    await this.#recovery.recoverAtStart(this.#recoverAtStart);
    for (const pool of this.#pools.values()) pool.start();
  }

  /**
   * Stops taking work, lets running stages finish for up to `graceMs` (default
   * `DEFAULT_STOP_GRACE_MS`), then aborts the rest; their jobs stay unfinished in the store and
   * are re-run by the next start (or `recoverWorker`). Sandboxes held between stages are closed.
   */
  async stop(options: { graceMs?: number } = {}): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    const { clock, jobs, writer, sandboxes, logger, bus } = this.#ctx;
    const stopped = Promise.all([...this.#pools.values()].map((pool) => pool.stop()));
    const grace = new Promise<void>((resolve) =>
      clock.setTimer(resolve, options.graceMs ?? DEFAULT_STOP_GRACE_MS),
    );
    await Promise.race([stopped, grace]);
    for (const live of jobs.live.values())
      live.controller?.abort(abortFailure("shutdown", "the engine is stopping"));
    await stopped;
    await writer.flush();
    this.#admission?.stop();
    await this.#cancellation.stop();
    await this.#events.stop();
    for (const held of sandboxes.takeAll()) {
      for (const error of await runCleanups(held.jobCleanups)) {
        logger?.warn({ jobId: held.jobId, err: String(error) }, "closing a held sandbox failed");
      }
    }
    if (this.#ownsBus) await bus.close();
  }

  /**
   * The runs (flows) sharing this engine's INIT admission: weight, priority, sandbox cap, jobs
   * waiting and in service, mean slot-time per job. Empty when `fairShare` is off.
   */
  fairShare(): FlowSnapshot[] {
    return this.#admission?.snapshot() ?? [];
  }

  /**
   * The run (flow id, share, priority) of a job this engine is running, as the inference pool
   * charges its generations; null for a job it does not hold.
   */
  flowOfJob(jobId: string): JobFlow | null {
    const live = this.#ctx.jobs.live.get(jobId);
    return live ? jobFlowOf(live.record) : null;
  }

  /**
   * The policy of a job this engine is running (whose backends generate for it, whose pause holds
   * it); null for a job it does not hold.
   */
  policyOfJob(jobId: string): string | null {
    return this.#ctx.jobs.live.get(jobId)?.record.policyId ?? null;
  }

  /**
   * Asks the job's stage to give its slot up for higher-priority work (INIT or RUN only): the job is
   * queued for INIT again, not counted as an attempt; its finished samples elsewhere are untouched.
   */
  async preempt(jobId: string): Promise<void> {
    await this.#cancellation.preemptOne(jobId);
  }

  handlerKinds(): string[] {
    return this.#ctx.handlers.kinds();
  }

  get handlers(): HandlerRegistry {
    return this.#ctx.handlers;
  }

  /**
   * Submits one job. `ownerId` (the submitting token's fingerprint; default null) is recorded as
   * the job's owner; a `jobKey` already used by a job of another owner is refused (403).
   */
  async submitJob(request: TSubmitJobRequest, options: SubmitOptions = {}): Promise<SubmitResult> {
    const [result] = await this.#submit([request], false, options);
    return result as SubmitResult;
  }

  /**
   * Validates every request first (all or nothing), then creates the jobs not seen before. Errors
   * name the request's index (`jobs[3].payload.question: …`). Every job gets `ownerId` as owner.
   */
  submitJobs(requests: readonly TSubmitJobRequest[], options: SubmitOptions = {}): Promise<SubmitResult[]> {
    return this.#submit(requests, true, options);
  }

  async #submit(
    requests: readonly TSubmitJobRequest[],
    isBatch: boolean,
    options: SubmitOptions,
  ): Promise<SubmitResult[]> {
    if (!this.#started) throw requestFailure("UNAVAILABLE", "the engine is not running; try again shortly");
    return this.#submission.submit(requests, isBatch, options.ownerId ?? null);
  }

  /**
   * The distinct owners (`ownerId`, null for unowned jobs) of every job, finished or not, of a
   * group or a batch; empty when it has none. What the control plane checks before letting a token
   * cancel, add to or read a group or batch.
   */
  async jobOwners(filter: { groupId: string } | { batchId: string }): Promise<Array<string | null>> {
    await this.#ctx.writer.flush();
    return this.#ctx.store.listJobOwners(filter);
  }

  /** The job as the store holds it, this engine's pending writes flushed first. */
  async getJob(id: string): Promise<TJob> {
    return (await this.#read(id)).record;
  }

  async listJobs(request: TJobListRequest): Promise<TJobListResponse> {
    const parsed = ZJobListRequest.safeParse(request);
    if (!parsed.success) throw requestFailure("VALIDATION_FAILED", formatIssues(parsed.error.issues));
    await this.#ctx.writer.flush();
    const page = await this.#ctx.store.listJobs(parsed.data);
    // The store answers (after this engine's writes): an in-memory copy may be stale after a bus loss.
    return { items: page.items, nextCursor: page.nextCursor };
  }

  /**
   * Cancels a job, a group or a batch; returns the ids that were cancelled (jobs the store holds
   * as terminal are skipped). A job running on another process is cancelled in the store and
   * aborted there through the bus.
   */
  async cancel(request: TCancelRequest): Promise<{ cancelled: string[] }> {
    const parsed = ZCancelRequest.safeParse(request);
    if (!parsed.success) throw requestFailure("VALIDATION_FAILED", formatIssues(parsed.error.issues));
    const { jobId, groupId, batchId } = parsed.data;
    if (jobId !== undefined) {
      const stored = await this.#read(jobId);
      return { cancelled: (await this.#cancellation.cancelOne(jobId, stored)) ? [jobId] : [] };
    }
    await this.#ctx.writer.flush();
    const ids = await this.#ctx.store.listJobIds(
      groupId !== undefined ? { groupId } : { batchId: batchId as string },
    );
    const cancelled: string[] = [];
    for (const id of ids) if (await this.#cancellation.cancelOne(id)) cancelled.push(id);
    return { cancelled };
  }

  /**
   * Restarts from INIT, on any worker, every unfinished job a lost worker held (its addressed
   * queue items are taken, its jobs restarted by compare-and-set so each restarts once; after
   * `maxAttempts` starts a job fails as `sandbox`).
   */
  recoverWorker(workerId: string): Promise<WorkerRecovery> {
    if (workerId === this.#ctx.workerId) {
      throw requestFailure("VALIDATION_FAILED", `worker ${workerId} is this engine itself; it is not lost`);
    }
    return this.#recovery.recoverWorker(workerId);
  }

  /**
   * Queues again every job the store says is waiting in a queue — after the queue lost its items
   * (a Redis restarted without persistence). Idempotent on the Redis queue (one waiting item per
   * job and stage); a stale item is dropped when taken; jobs this engine's fair-share admission
   * holds back had no item and stay held. `stages`: only these stages' items (default every
   * stage). Returns how many items were queued.
   */
  async requeueQueuedJobs(options: { stages?: readonly TStage[] } = {}): Promise<number> {
    const stages = options.stages ?? STAGES;
    const requeued = await this.#recovery.requeueQueued(stages);
    this.#ctx.logger?.warn({ requeued, stages }, "re-queued the items of every job stored as queued");
    return requeued;
  }

  /** Long-polls until every job is terminal, `timeoutMs` passes, or `signal` aborts. */
  waitForJobs(
    ids: readonly string[],
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<WaitResult> {
    return waitForJobs(ids, options, {
      getJob: (id) => this.getJob(id),
      subscribe: (listener) => this.subscribe(listener),
      clock: this.#ctx.clock,
    });
  }

  async getTrajectory(jobId: string): Promise<{ turns: TTurn[]; toolCalls: TToolCall[] }> {
    await this.getJob(jobId);
    await this.#ctx.writer.flush();
    const [turns, toolCalls] = await Promise.all([
      this.#ctx.store.listTurns(jobId),
      this.#ctx.store.listToolCalls(jobId),
    ]);
    return { turns, toolCalls };
  }

  /** A job's stored trajectory as a trainer's loss reads it (flat tokens, loss mask, logprobs); `NOT_FOUND` for an unknown job. */
  exportTrajectory(jobId: string): Promise<TTrajectoryExport> {
    return this.#exporter.exportJob(jobId);
  }

  /** One page of a batch's exported trajectories, newest job first; `NOT_FOUND` for a batch with no job. */
  exportBatchTrajectories(
    batchId: string,
    page: { cursor?: string; limit: number },
  ): Promise<TTrajectoryExportPage> {
    return this.#exporter.exportBatch(batchId, page);
  }

  stats(): TEngineStats {
    const concurrency = Object.fromEntries(STAGES.map((s) => [s, this.#pool(s).concurrency])) as Record<
      TStage,
      number
    >;
    return this.#ctx.stats.snapshot(this.#ctx.clock.now(), concurrency);
  }

  setConcurrency(stage: TStage, concurrency: number): void {
    if (!Number.isInteger(concurrency) || concurrency < 0 || concurrency > 100_000) {
      throw requestFailure(
        "VALIDATION_FAILED",
        `concurrency must be an integer from 0 to 100000, got ${concurrency}`,
      );
    }
    this.#pool(stage).setConcurrency(concurrency);
  }

  /** Job events: this engine's, and with a shared `bus` those of every other process too. */
  subscribe(listener: JobEventListener): () => void {
    return this.#events.subscribe(listener);
  }

  onStageFinished(listener: (event: StageFinishedEvent) => void): () => void {
    return this.#events.onStageFinished(listener);
  }

  /**
   * A policy change (the engine is a `PolicySink`): while a policy's generation is paused for a
   * weight sync, the RUN stage budgets of that policy's jobs stop counting, so a job held at the
   * inference gate never times out for it; other policies' jobs are not held.
   */
  applyPolicy(state: TPolicyState): void {
    this.#ctx.clockHolds.of(state.policyId).set(state.isPaused);
  }

  /** Writes everything buffered to the store now. */
  flush(): Promise<void> {
    return this.#ctx.writer.flush();
  }

  #pool(stage: TStage): StagePool {
    return this.#pools.get(stage) as StagePool;
  }

  /** This engine's INIT + RUN slots for admission: none while it starts no INIT (drained). */
  #ownAdmissionSlots(): number {
    const init = this.#pools.get("init")?.concurrency ?? 0;
    return init > 0 ? init + (this.#pools.get("run")?.concurrency ?? 0) : 0;
  }

  /** Like `#find`, but an unknown job is `NOT_FOUND`. */
  async #read(id: string): Promise<StoredJob> {
    const stored = await this.#find(id);
    if (!stored) throw requestFailure("NOT_FOUND", `no job with id "${id}"`, { details: { jobId: id } });
    return stored;
  }

  /**
   * A job as the store holds it (state, result, version), this engine's pending writes flushed
   * first; nothing is answered from memory, since another process (a worker, another replica on
   * the same database) may have moved it, and the bus that tells of it delivers at most once. A
   * stored version newer than this engine knew is taken as that change's lost event (listeners
   * hear it; a stale copy is dropped).
   */
  async #find(id: string): Promise<StoredJob | null> {
    await this.#ctx.writer.flush();
    const stored = await this.#ctx.store.readJob(id);
    if (!stored) return null;
    this.#events.reconcile(stored);
    return stored;
  }
}
