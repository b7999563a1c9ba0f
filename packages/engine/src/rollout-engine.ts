import {
  formatIssues,
  isTerminalStatus,
  RaasError,
  STAGES,
  type TCancelRequest,
  type TEngineStats,
  type TFailureKind,
  type TJob,
  type TJobListRequest,
  type TJobListResponse,
  type TStage,
  type TSubmitJobRequest,
  type TToolCall,
  type TTrajectoryExport,
  type TTrajectoryExportPage,
  type TTurn,
  ZCancelRequest,
  ZJobListRequest,
} from "@raas/shared";
import type { EngineLogger, EngineOptions, JobEventListener, SubmitResult, WaitResult } from "./engine.types";
import { DEFAULT_STOP_GRACE_MS } from "./engine-defaults";
import { TrajectoryExporter } from "./export/trajectory-exporter";
import type { HandlerRegistry } from "./handler-registry";
import { atIndex, atIndexAsync } from "./lifecycle/batch-index";
import { createJobRecord, parseSubmitRequest } from "./lifecycle/job-factory";
import { applyTransition, type JobTransition } from "./lifecycle/job-state-machine";
import { KeyedSubmissions } from "./lifecycle/keyed-submissions";
import { type LiveJob, newLiveJob, runCleanups } from "./lifecycle/live-job";
import { RecentJobs } from "./lifecycle/recent-jobs";
import { runStage } from "./lifecycle/stage-executor";
import { StagePool } from "./lifecycle/stage-pool";
import { StatsTracker } from "./lifecycle/stats-tracker";
import { StoreWriter } from "./lifecycle/store-writer";
import { createRecorder } from "./lifecycle/trajectory-recorder";
import { waitForJobs } from "./lifecycle/wait-for-jobs";
import { type Clock, systemClock } from "./ports/clock.port";
import type { JobQueue, Lease } from "./ports/job-queue.port";
import type { JobStore } from "./ports/job-store.port";
import type { EvalOutcome } from "./ports/task-handler.port";
import { EngineAbort } from "./util/abort";

const DEFAULT_POOLS: Record<TStage, { concurrency: number; timeoutMs: number }> = {
  init: { concurrency: 64, timeoutMs: 300_000 },
  run: { concurrency: 64, timeoutMs: 3_600_000 },
  eval: { concurrency: 64, timeoutMs: 1_800_000 },
};

export interface StageFinishedEvent {
  jobId: string;
  stage: TStage;
  durationMs: number;
  outcome: "ok" | TFailureKind;
}

/**
 * The headless rollout engine: accepts jobs, moves each through INIT → RUN → EVAL on three
 * independent stage pools, persists every transition through the `JobStore` (group commit),
 * and reports events and stats. All I/O goes through the ports it is given.
 */
export class RolloutEngine {
  readonly #store: JobStore;
  readonly #queue: JobQueue;
  readonly #handlers: HandlerRegistry;
  readonly #clock: Clock;
  readonly #logger: EngineLogger | undefined;
  readonly #inference: EngineOptions["inference"];
  readonly #writer: StoreWriter;
  readonly #stats: StatsTracker;
  readonly #pools = new Map<TStage, StagePool>();
  readonly #timeouts = new Map<TStage, number>();
  readonly #leaseMs: number;
  readonly #live = new Map<string, LiveJob>();
  readonly #keyed = new KeyedSubmissions(async (jobKey) => {
    const existing = await this.#store.findJobByKey(jobKey);
    return existing ? this.#freshest(existing) : null;
  });
  readonly #recent = new RecentJobs(10_000);
  readonly #listeners = new Set<JobEventListener>();
  readonly #stageListeners = new Set<(event: StageFinishedEvent) => void>();
  readonly #exporter: TrajectoryExporter;
  #started = false;

  constructor(options: EngineOptions) {
    this.#store = options.store;
    this.#queue = options.queue;
    this.#handlers = options.handlers;
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger;
    this.#inference = options.inference;
    this.#leaseMs = options.leaseMs ?? 60_000;
    this.#writer = new StoreWriter(options.store, options.writeBatch ?? {}, options.logger);
    this.#exporter = new TrajectoryExporter({
      store: options.store,
      flush: () => this.#writer.flush(),
      findJob: (id) => this.#find(id),
      freshest: (job) => this.#freshest(job),
    });
    this.#stats = new StatsTracker({
      windowMs: options.throughputWindowMs ?? 60_000,
      sampleEveryMs: options.sampleEveryMs ?? 2_000,
      nowMs: this.#clock.now(),
    });
    for (const stage of STAGES) {
      const pool = { ...DEFAULT_POOLS[stage], ...options.pools?.[stage] };
      this.#timeouts.set(stage, pool.timeoutMs);
      this.#pools.set(
        stage,
        new StagePool({
          stage,
          queue: this.#queue,
          concurrency: pool.concurrency,
          leaseMs: this.#leaseMs,
          execute: (lease) => this.#execute(lease),
          ...(this.#logger ? { logger: this.#logger } : {}),
        }),
      );
    }
  }

  /** Seeds counters from the store, re-queues jobs a previous process left unfinished, starts the pools. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    this.#stats.seed(await this.#store.totals());
    for (const record of await this.#store.listUnfinishedJobs()) await this.#recover(record);
    for (const pool of this.#pools.values()) pool.start();
  }

  /**
   * Stops taking work, lets running stages finish for up to `graceMs` (default
   * `DEFAULT_STOP_GRACE_MS`), then aborts the rest; their jobs stay unfinished in the store and
   * are re-run by the next start.
   */
  async stop(options: { graceMs?: number } = {}): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    const stopped = Promise.all([...this.#pools.values()].map((pool) => pool.stop()));
    const grace = new Promise<void>((resolve) =>
      this.#clock.setTimer(resolve, options.graceMs ?? DEFAULT_STOP_GRACE_MS),
    );
    await Promise.race([stopped, grace]);
    for (const live of this.#live.values()) {
      live.controller?.abort(new EngineAbort("shutdown", "the engine is stopping"));
    }
    await stopped;
    await this.#writer.flush();
  }

  handlerKinds(): string[] {
    return this.#handlers.kinds();
  }

  get handlers(): HandlerRegistry {
    return this.#handlers;
  }

  async submitJob(request: TSubmitJobRequest): Promise<SubmitResult> {
    const [result] = await this.#submit([request], false);
    return result as SubmitResult;
  }

  /**
   * Validates every request first (all or nothing), then creates the jobs not seen before. Errors
   * name the request's index (`jobs[3].payload.question: …`).
   */
  submitJobs(requests: readonly TSubmitJobRequest[]): Promise<SubmitResult[]> {
    return this.#submit(requests, true);
  }

  async #submit(requests: readonly TSubmitJobRequest[], isBatch: boolean): Promise<SubmitResult[]> {
    if (!this.#started) throw new RaasError("UNAVAILABLE", "the engine is not running; try again shortly");
    const at = (index: number): PropertyKey[] => (isBatch ? ["jobs", index] : []);
    const parsed = requests.map((request, index) => parseSubmitRequest(request, at(index)));
    const payloads = parsed.map((request, index) =>
      atIndex(() => this.#handlers.parsePayload(request.kind, request.payload, at(index)), isBatch, index),
    );
    return Promise.all(
      parsed.map(async (request, index) => {
        const create = () => this.#create(request, payloads[index]);
        const { jobKey } = request;
        if (jobKey === undefined) return create();
        return atIndexAsync(() => this.#keyed.submit({ ...request, jobKey }, create), isBatch, index);
      }),
    );
  }

  async getJob(id: string): Promise<TJob> {
    const job = await this.#find(id);
    if (!job) throw new RaasError("NOT_FOUND", `no job with id "${id}"`, { details: { jobId: id } });
    return job;
  }

  async listJobs(request: TJobListRequest): Promise<TJobListResponse> {
    const parsed = ZJobListRequest.safeParse(request);
    if (!parsed.success) throw new RaasError("VALIDATION_FAILED", formatIssues(parsed.error.issues));
    await this.#writer.flush();
    const page = await this.#store.listJobs(parsed.data);
    return { items: page.items.map((job) => this.#freshest(job)), nextCursor: page.nextCursor };
  }

  /** Cancels a job, a group or a batch; returns the ids that were cancelled (terminal ones are skipped). */
  async cancel(request: TCancelRequest): Promise<{ cancelled: string[] }> {
    const parsed = ZCancelRequest.safeParse(request);
    if (!parsed.success) throw new RaasError("VALIDATION_FAILED", formatIssues(parsed.error.issues));
    const { jobId, groupId, batchId } = parsed.data;
    let ids: string[];
    if (jobId !== undefined) {
      await this.getJob(jobId);
      ids = [jobId];
    } else {
      await this.#writer.flush();
      ids = await this.#store.listJobIds(
        groupId !== undefined ? { groupId } : { batchId: batchId as string },
      );
    }
    const cancelled: string[] = [];
    for (const id of ids) if (await this.#cancelOne(id)) cancelled.push(id);
    return { cancelled };
  }

  /** Long-polls until every job is terminal, `timeoutMs` passes, or `signal` aborts. */
  waitForJobs(
    ids: readonly string[],
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<WaitResult> {
    return waitForJobs(ids, options, {
      getJob: (id) => this.getJob(id),
      subscribe: (listener) => this.subscribe(listener),
      clock: this.#clock,
    });
  }

  async getTrajectory(jobId: string): Promise<{ turns: TTurn[]; toolCalls: TToolCall[] }> {
    await this.getJob(jobId);
    await this.#writer.flush();
    const [turns, toolCalls] = await Promise.all([
      this.#store.listTurns(jobId),
      this.#store.listToolCalls(jobId),
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
    return this.#stats.snapshot(this.#clock.now(), concurrency);
  }

  setConcurrency(stage: TStage, concurrency: number): void {
    if (!Number.isInteger(concurrency) || concurrency < 0 || concurrency > 100_000) {
      throw new RaasError(
        "VALIDATION_FAILED",
        `concurrency must be an integer from 0 to 100000, got ${concurrency}`,
      );
    }
    this.#pool(stage).setConcurrency(concurrency);
  }

  subscribe(listener: JobEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  onStageFinished(listener: (event: StageFinishedEvent) => void): () => void {
    this.#stageListeners.add(listener);
    return () => this.#stageListeners.delete(listener);
  }

  /** Writes everything buffered to the store now. */
  flush(): Promise<void> {
    return this.#writer.flush();
  }

  #pool(stage: TStage): StagePool {
    return this.#pools.get(stage) as StagePool;
  }

  async #create(request: ReturnType<typeof parseSubmitRequest>, payload: unknown): Promise<SubmitResult> {
    const nowMs = this.#clock.now();
    const record = createJobRecord(request, nowMs);
    const live = newLiveJob(record, payload, nowMs);
    this.#live.set(record.id, live);
    try {
      await this.#writer.insert(record);
    } catch (error) {
      this.#live.delete(record.id);
      throw new RaasError("UNAVAILABLE", "the job store is unavailable; the job was not accepted, retry", {
        cause: error,
      });
    }
    this.#stats.submitted();
    this.#stats.moved(null, { status: "submitted", stage: null, failureKind: null }, nowMs);
    if (live.record.status === "submitted") await this.#enqueue(live, { type: "enqueue" });
    return { job: live.record, created: true };
  }

  async #recover(record: TJob): Promise<void> {
    const nowMs = this.#clock.now();
    let payload: unknown;
    try {
      payload = this.#handlers.parsePayload(record.kind, record.payload);
    } catch (error) {
      this.#logger?.error(
        { jobId: record.id, err: String(error) },
        "cannot recover job: handler or payload invalid",
      );
      return;
    }
    const live = newLiveJob(record, payload, nowMs);
    this.#live.set(record.id, live);
    this.#stats.moved(null, { status: record.status, stage: record.stage, failureKind: null }, nowMs);
    const fresh = record.status === "submitted" || (record.status === "queued" && record.stage === "init");
    if (record.status === "submitted") await this.#enqueue(live, { type: "enqueue" });
    else if (fresh) await this.#queue.enqueue({ jobId: record.id, stage: "init", priority: record.priority });
    else {
      // The previous attempt's turns would mix with the new attempt's (same indexes): drop them.
      await this.#store.deleteTrajectory(record.id);
      await this.#enqueue(live, { type: "restart" });
    }
    this.#logger?.info(
      { jobId: record.id, status: record.status, stage: record.stage },
      "recovered unfinished job",
    );
  }

  async #enqueue(live: LiveJob, transition: JobTransition): Promise<void> {
    this.#transition(live, transition);
    const { id, stage, priority } = live.record;
    await this.#queue.enqueue({ jobId: id, stage: stage as TStage, priority });
  }

  #transition(live: LiveJob, transition: JobTransition): void {
    const before = live.record;
    const nowMs = this.#clock.now();
    const after = applyTransition(before, transition, { nowMs, stateSinceMs: live.stateSinceMs });
    live.record = after;
    live.stateSinceMs = nowMs;
    this.#stats.moved(
      before,
      { status: after.status, stage: after.stage, failureKind: after.failure?.kind ?? null },
      nowMs,
    );
    const { id, createdAtMs: _createdAtMs, ...rest } = after;
    this.#writer.update({ id, ...rest });
    if (isTerminalStatus(after.status)) void this.#finalize(live);
    for (const listener of this.#listeners) {
      try {
        listener({ type: "job.updated", job: after });
      } catch (error) {
        this.#logger?.warn({ err: String(error) }, "job event listener threw");
      }
    }
  }

  async #finalize(live: LiveJob): Promise<void> {
    this.#live.delete(live.record.id);
    this.#recent.add(live.record);
    if (live.record.jobKey !== null) this.#keyed.forget(live.record.jobKey);
    try {
      this.#inference?.releaseJob(live.record.id);
    } catch (error) {
      this.#logger?.warn({ jobId: live.record.id, err: String(error) }, "releasing the job's backend failed");
    }
    for (const error of await runCleanups(live.jobCleanups)) {
      this.#logger?.warn({ jobId: live.record.id, err: String(error) }, "job cleanup failed");
    }
  }

  /** The in-memory record when this engine holds a newer one than the store returned. */
  #freshest(job: TJob): TJob {
    return this.#live.get(job.id)?.record ?? this.#recent.get(job.id) ?? job;
  }

  async #find(id: string): Promise<TJob | null> {
    const live = this.#live.get(id)?.record ?? this.#recent.get(id);
    if (live) return live;
    await this.#writer.flush();
    return this.#store.getJob(id);
  }

  async #cancelOne(id: string): Promise<boolean> {
    const live = this.#live.get(id);
    if (!live || isTerminalStatus(live.record.status)) return false;
    const { status, stage } = live.record;
    if (status === "active" && live.controller) {
      live.controller.abort(new EngineAbort("cancelled", "cancelled by request"));
      return true;
    }
    if (status === "queued" && stage !== null) await this.#queue.remove(id, stage);
    this.#transition(live, {
      type: "cancel",
      message: `cancelled while ${status}${stage ? ` (${stage})` : ""}`,
    });
    return true;
  }

  async #execute(lease: Lease): Promise<void> {
    const { jobId, stage } = lease.item;
    const live = this.#live.get(jobId);
    if (live?.record.status !== "queued" || live.record.stage !== stage) {
      await this.#queue.ack(lease);
      return;
    }
    const startedAtMs = this.#clock.now();
    this.#transition(live, { type: "activate" });
    let currentLease = lease;
    const extender = setInterval(() => {
      this.#queue.extend(currentLease, this.#leaseMs).then(
        (renewed) => {
          currentLease = renewed;
        },
        (error: unknown) => this.#logger?.warn({ jobId, err: String(error) }, "lease extension failed"),
      );
    }, this.#leaseMs / 2);
    extender.unref();
    const handler = this.#handlers.get(live.record.kind);
    const outcome = await runStage({
      live,
      stage,
      handler,
      timeoutMs: live.record.timeoutsMs?.[stage] ?? (this.#timeouts.get(stage) as number),
      clock: this.#clock,
      record: createRecorder(jobId, this.#writer, this.#clock, (tokenBreak) => {
        this.#stats.tokenBreak();
        this.#logger?.warn(
          { jobId, tokenBreak },
          "stored trajectory is not token-exact; its export will say tokenExact: false",
        );
      }),
      ...(this.#logger ? { logger: this.#logger } : {}),
    });
    clearInterval(extender);
    const durationMs = this.#clock.now() - startedAtMs;
    if (outcome.type === "shutdown") {
      await this.#queue.ack(currentLease);
      return;
    }
    if (outcome.type === "ok") {
      if (stage === "eval") {
        const { reward, result } = outcome.value as EvalOutcome;
        this.#transition(live, { type: "complete", reward, result });
      } else {
        live.outputs[stage] = outcome.value;
        await this.#enqueue(live, { type: "enqueue" });
      }
    } else if (outcome.failure.kind === "cancelled") {
      this.#transition(live, { type: "cancel", message: outcome.failure.message });
    } else {
      this.#transition(live, {
        type: "fail",
        kind: outcome.failure.kind,
        message: outcome.failure.message,
        failureReward: handler.failureReward,
      });
    }
    await this.#queue.ack(currentLease);
    const result = outcome.type === "ok" ? "ok" : outcome.failure.kind;
    for (const listener of this.#stageListeners) listener({ jobId, stage, durationMs, outcome: result });
  }
}
