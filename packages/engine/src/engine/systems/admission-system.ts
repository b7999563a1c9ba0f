import { isTerminalStatus, type TJob, type TStage } from "@raas/shared";
import type { JobRecord } from "../../ports/job-record.types";
import {
  arriveUnit,
  compareFlows,
  dispatchUnit,
  emptyFairQueue,
  estimateCost,
  type FairQueueState,
  type FlowState,
  finishUnit,
  isEligible,
  pickFlow,
  pruneIdleFlows,
  withdrawUnit,
} from "../../scheduling/fair-queue";
import { admissionWindow, type TResolvedFairShareOptions } from "../../scheduling/fair-share-options";
import { jobFlowOf } from "../../scheduling/job-flow";
import { choosePreemptions, type RunningUnit, type WaitingUnit } from "../../scheduling/preemption";
import type { EngineContext } from "../engine-context";
import type { EventSystem } from "./event-system";

interface HeldUnit {
  jobId: string;
  priority: number;
  sinceMs: number;
}

/** A job this engine admitted, followed through its events until it ends. */
interface TrackedJob {
  flowId: string;
  priority: number;
  estimateMs: number;
  status: TJob["status"];
  stage: TStage | null;
  sinceMs: number;
  /** When this engine last heard of the job (an event, or a read from the store). */
  heardAtMs: number;
}

/** Released and not yet in a RUN slot: queued for INIT or RUN, or running INIT. */
const isAhead = (job: Pick<TrackedJob, "status" | "stage">) =>
  (job.status === "queued" && job.stage !== "eval") || (job.status === "active" && job.stage === "init");

/** One flow (training run) as `fairShare()` reports it. */
export interface FlowSnapshot {
  flowId: string;
  weight: number;
  priority: number;
  maxInService: number | null;
  /** Jobs held for INIT in this engine. */
  waiting: number;
  /** Jobs released to the queue and not ended (each holds or will hold a sandbox). */
  inService: number;
  /** Mean slot-time of its ended jobs (INIT + RUN + EVAL), ms; null before the first. */
  meanCostMs: number | null;
}

/** Weight of the newest job in the running mean of a flow's slot-time per job. */
const COST_SMOOTHING = 0.2;

/**
 * Fair admission of new jobs to the INIT queue: jobs wait here per flow (training run) and are
 * released in weighted-fair order (`scheduling/fair-queue`), priority tier first, a run's sandbox
 * cap respected, keeping only a window of released jobs ahead of the RUN slots (queued for INIT
 * or RUN, or running INIT) — so the queues' order (by priority, then FIFO) is the fair order, on the
 * in-memory queue and on Redis alike, and a run never holds sandboxes far ahead of its turn. The
 * window is the live capacity (`admissionWindow`): this engine's INIT + RUN slots plus the other
 * live workers' (`capacity`, read every `capacityEveryMs`), unless `queuedAhead` fixes it.
 * A job's real slot-time is charged to its run when it ends. Optional preemption asks lower
 * priority INIT/RUN work to give its slot up when higher-priority work has waited too long.
 *
 * It follows jobs through the engine's events, which with a shared bus include every process's,
 * and reads a released job from the store when it has heard nothing of it for `staleAfterMs`.
 * After a restart, `adopt` takes back the jobs an earlier process had released and `admit` the
 * ones it still held, so the window counts what is already out before anything more is released.
 */
export class AdmissionSystem {
  readonly #ctx: EngineContext;
  readonly #events: EventSystem;
  readonly #options: TResolvedFairShareOptions;
  readonly #preempt: (jobId: string) => Promise<void>;
  /** This engine's own INIT + RUN slots now (pools can be resized at run time). */
  readonly #ownSlots: () => number;
  /** The other live workers' INIT + RUN slots at the last read of `capacity`; null before one. */
  #otherSlots: number | null = null;
  #capacityReadAtMs = Number.NEGATIVE_INFINITY;
  #readingCapacity: Promise<void> | null = null;
  #state: FairQueueState = emptyFairQueue();
  readonly #held = new Map<string, HeldUnit[]>();
  readonly #heldFlowOf = new Map<string, string>();
  readonly #tracked = new Map<string, TrackedJob>();
  /** Released jobs ahead of the RUN slots (`isAhead`), by job id → priority. */
  readonly #ahead = new Map<string, number>();
  readonly #costs = new Map<string, number>();
  #overallCostMs: number | null = null;
  /** Jobs asked to give their slot up, by the stage they were in. */
  readonly #preempting = new Map<string, TStage>();
  #unsubscribe: (() => void) | null = null;
  #cancelSweep: (() => void) | null = null;
  #sweeping = false;

  constructor(
    ctx: EngineContext,
    events: EventSystem,
    options: TResolvedFairShareOptions,
    preempt: (jobId: string) => Promise<void>,
    ownSlots: () => number,
  ) {
    this.#ctx = ctx;
    this.#events = events;
    this.#options = options;
    this.#preempt = preempt;
    this.#ownSlots = ownSlots;
  }

  start(): void {
    if (this.#unsubscribe) return;
    this.#unsubscribe = this.#events.subscribe((event) => this.#observe(event.job));
    const tick = () => {
      void this.#sweep().finally(() => {
        if (this.#unsubscribe) this.#cancelSweep = this.#ctx.clock.setTimer(tick, this.#options.sweepEveryMs);
      });
    };
    this.#cancelSweep = this.#ctx.clock.setTimer(tick, this.#options.sweepEveryMs);
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#cancelSweep?.();
    this.#cancelSweep = null;
  }

  /** Released jobs allowed ahead of the RUN slots now. */
  get window(): number {
    return admissionWindow({
      queuedAhead: this.#options.queuedAhead,
      ownSlots: this.#ownSlots(),
      otherSlots: this.#otherSlots,
    });
  }

  /** True while `jobId` waits here, not yet released to the INIT queue. */
  isHolding(jobId: string): boolean {
    return this.#heldFlowOf.has(jobId);
  }

  /**
   * Reads the other workers' capacity now (or joins the read in flight). A failed read keeps the
   * last value; a grown window releases more at once.
   */
  refreshCapacity(): Promise<void> {
    const capacity = this.#options.capacity;
    if (!capacity) return Promise.resolve();
    this.#readingCapacity ??= (async () => {
      const before = this.window;
      try {
        const slots = await capacity();
        if (slots !== null) this.#otherSlots = slots;
      } catch (error) {
        this.#ctx.logger?.warn(
          { err: String(error) },
          "reading the workers' capacity failed; keeping the last",
        );
      } finally {
        this.#capacityReadAtMs = this.#ctx.clock.now();
        this.#readingCapacity = null;
      }
      if (this.#unsubscribe && this.window > before) this.#pump();
    })();
    return this.#readingCapacity;
  }

  /** A new job queued for INIT (stored): held under its flow until the scheduler releases it. */
  admit(record: JobRecord): void {
    const { flowId, ...share } = jobFlowOf(record);
    this.#state = arriveUnit(this.#state, flowId, share);
    let units = this.#held.get(flowId);
    if (!units) {
      units = [];
      this.#held.set(flowId, units);
    }
    units.push({ jobId: record.id, priority: record.priority, sinceMs: this.#ctx.clock.now() });
    this.#heldFlowOf.set(record.id, flowId);
    this.#pump();
  }

  /**
   * A job an earlier process released (found at start: its INIT item still queued, or past INIT):
   * followed as released, counted in its run's jobs in service and, until RUN, ahead of the RUN
   * slots. A terminal or already known job is ignored.
   */
  adopt(record: JobRecord): void {
    if (isTerminalStatus(record.status) || this.#tracked.has(record.id) || this.#heldFlowOf.has(record.id))
      return;
    const { flowId, ...share } = jobFlowOf(record);
    const estimateMs = estimateCost(
      this.#costs.get(flowId) ?? null,
      this.#overallCostMs,
      this.#options.initialCostMs,
    );
    this.#state = dispatchUnit(arriveUnit(this.#state, flowId, share), flowId, estimateMs);
    const nowMs = this.#ctx.clock.now();
    const tracked: TrackedJob = {
      flowId,
      priority: record.priority,
      estimateMs,
      status: record.status,
      stage: record.stage,
      sinceMs: nowMs,
      heardAtMs: nowMs,
    };
    this.#tracked.set(record.id, tracked);
    if (isAhead(tracked)) this.#ahead.set(record.id, record.priority);
  }

  /** Every flow this engine schedules, highest priority and most behind first. */
  snapshot(): FlowSnapshot[] {
    return [...this.#state.flows.values()].sort(compareFlows).map((flow) => ({
      flowId: flow.id,
      weight: flow.weight,
      priority: flow.priority,
      maxInService: flow.maxInService,
      waiting: flow.waiting,
      inService: flow.inService,
      meanCostMs: this.#costs.get(flow.id) ?? null,
    }));
  }

  /** Releases units while the queue is short, or while a unit outranks everything released. */
  #pump(): void {
    const window = this.window;
    for (;;) {
      const flow = pickFlow(this.#state);
      if (!flow) return;
      if (this.#ahead.size >= window && !this.#outranksAhead(flow)) return;
      const unit = this.#held.get(flow.id)?.shift();
      if (!unit) {
        this.#state = withdrawUnit(this.#state, flow.id); // cannot happen: counts and lists agree
        continue;
      }
      this.#release(flow, unit);
    }
  }

  #outranksAhead(flow: FlowState): boolean {
    for (const priority of this.#ahead.values()) if (priority >= flow.priority) return false;
    return true;
  }

  #release(flow: FlowState, unit: HeldUnit): void {
    const { queue, logger } = this.#ctx;
    const estimateMs = estimateCost(
      this.#costs.get(flow.id) ?? null,
      this.#overallCostMs,
      this.#options.initialCostMs,
    );
    this.#state = dispatchUnit(this.#state, flow.id, estimateMs);
    this.#heldFlowOf.delete(unit.jobId);
    this.#tracked.set(unit.jobId, {
      flowId: flow.id,
      priority: unit.priority,
      estimateMs,
      status: "queued",
      stage: "init",
      sinceMs: unit.sinceMs,
      heardAtMs: this.#ctx.clock.now(),
    });
    this.#ahead.set(unit.jobId, unit.priority);
    queue.enqueue({ jobId: unit.jobId, stage: "init", priority: unit.priority }).catch((error: unknown) => {
      // The job stays stored as queued: `requeueQueuedJobs` (or a restart) queues it again.
      logger?.error({ jobId: unit.jobId, err: String(error) }, "releasing a job to the INIT queue failed");
    });
  }

  #observe(job: TJob): void {
    const heldFlow = this.#heldFlowOf.get(job.id);
    if (heldFlow !== undefined) {
      if (isTerminalStatus(job.status)) this.#withdraw(job.id, heldFlow);
      return;
    }
    const tracked = this.#tracked.get(job.id);
    if (!tracked) return;
    const nowMs = this.#ctx.clock.now();
    tracked.heardAtMs = nowMs;
    if (tracked.status !== job.status || tracked.stage !== job.stage) {
      tracked.status = job.status;
      tracked.stage = job.stage;
      tracked.sinceMs = nowMs;
      if (job.status !== "active") this.#preempting.delete(job.id);
    }
    let leftAhead = false;
    if (isAhead(tracked)) this.#ahead.set(job.id, tracked.priority);
    else leftAhead = this.#ahead.delete(job.id);
    if (isTerminalStatus(job.status)) {
      this.#end(job, tracked);
      this.#pump();
    } else if (leftAhead) this.#pump();
  }

  #withdraw(jobId: string, flowId: string): void {
    this.#heldFlowOf.delete(jobId);
    const units = this.#held.get(flowId);
    const index = units?.findIndex((unit) => unit.jobId === jobId) ?? -1;
    if (units && index >= 0) {
      units.splice(index, 1);
      this.#state = withdrawUnit(this.#state, flowId);
    }
  }

  /** Charges the job's real slot-time (time inside its stages) to its flow. */
  #end(job: TJob, tracked: TrackedJob): void {
    this.#tracked.delete(job.id);
    this.#ahead.delete(job.id);
    this.#preempting.delete(job.id);
    const { initMs, runMs, evalMs } = job.timings;
    const costMs = (initMs ?? 0) + (runMs ?? 0) + (evalMs ?? 0);
    this.#state = finishUnit(this.#state, tracked.flowId, costMs, tracked.estimateMs);
    // Cancelled jobs (a step closing) say little about a run's typical job: not in the mean.
    if (job.status === "cancelled") return;
    const mean = this.#costs.get(tracked.flowId);
    this.#costs.set(tracked.flowId, mean === undefined ? costMs : mean + COST_SMOOTHING * (costMs - mean));
    const overall = this.#overallCostMs;
    this.#overallCostMs = overall === null ? costMs : overall + COST_SMOOTHING * (costMs - overall);
  }

  async #sweep(): Promise<void> {
    if (this.#sweeping) return;
    this.#sweeping = true;
    try {
      if (this.#ctx.clock.now() - this.#capacityReadAtMs >= this.#options.capacityEveryMs) {
        // Not awaited: a slow registry (a database outage) must not hold the sweep up.
        void this.refreshCapacity();
      }
      await this.#rereadStale();
      this.#pump();
      if (this.#options.preemptAfterMs !== null) this.#preemptFor(this.#options.preemptAfterMs);
      this.#state = pruneIdleFlows(this.#state);
    } catch (error) {
      this.#ctx.logger?.warn({ err: String(error) }, "fair-share sweep failed");
    } finally {
      this.#sweeping = false;
    }
  }

  /** Jobs not heard of for `staleAfterMs` are read from the store (an event may have been lost). */
  async #rereadStale(): Promise<void> {
    const { clock, store, writer } = this.#ctx;
    const staleBefore = clock.now() - this.#options.staleAfterMs;
    const stale = [...this.#tracked].filter(([, job]) => job.heardAtMs < staleBefore).slice(0, 64);
    if (stale.length === 0) return;
    await writer.flush();
    for (const [jobId, tracked] of stale) {
      const stored = await store.readJob(jobId);
      if (stored) this.#observe(stored.record);
      else if (this.#tracked.delete(jobId)) {
        // Gone from the store: it holds nothing any more.
        this.#ahead.delete(jobId);
        this.#state = finishUnit(this.#state, tracked.flowId, tracked.estimateMs, tracked.estimateMs);
      }
    }
  }

  #preemptFor(preemptAfterMs: number): void {
    const waiting: WaitingUnit[] = [];
    for (const [flowId, units] of this.#held) {
      const flow = this.#state.flows.get(flowId);
      if (!flow || !isEligible(flow)) continue;
      for (const unit of units)
        waiting.push({ priority: unit.priority, stage: "init", sinceMs: unit.sinceMs });
    }
    const running: RunningUnit[] = [];
    const pending = new Map<TStage, number>();
    for (const stage of this.#preempting.values()) pending.set(stage, (pending.get(stage) ?? 0) + 1);
    for (const [jobId, job] of this.#tracked) {
      if (job.stage === null) continue;
      if (job.status === "queued")
        waiting.push({ priority: job.priority, stage: job.stage, sinceMs: job.sinceMs });
      if (job.status === "active" && !this.#preempting.has(jobId))
        running.push({ jobId, priority: job.priority, stage: job.stage, startedAtMs: job.sinceMs });
    }
    const victims = choosePreemptions({
      running,
      waiting,
      pendingPreemptions: pending,
      nowMs: this.#ctx.clock.now(),
      preemptAfterMs,
    });
    for (const jobId of victims) {
      const stage = this.#tracked.get(jobId)?.stage;
      if (!stage) continue;
      this.#preempting.set(jobId, stage);
      this.#ctx.logger?.info({ jobId, stage }, "preempting lower-priority work for a waiting job");
      this.#preempt(jobId).catch((error: unknown) => {
        this.#preempting.delete(jobId);
        this.#ctx.logger?.warn({ jobId, err: String(error) }, "preempting a job failed");
      });
    }
  }
}
