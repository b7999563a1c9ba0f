import {
  arriveUnit,
  compareFlows,
  dispatchUnit,
  emptyFairQueue,
  estimateCost,
  type FairQueueState,
  finishUnit,
  pickFlow,
  pruneIdleFlows,
  withdrawUnit,
} from "./fair-queue";

/** Who a request for a shared capacity is charged to: its flow (training run), weight and tier. */
export interface GrantFlow {
  flowId: string;
  /** Relative share within its priority tier (> 0; anything else counts as 1). */
  weight: number;
  /** Higher tiers are granted first. */
  priority: number;
}

/** A granted request: hand it back to `finish` with its real cost when it ends. */
export interface Grant<T> {
  readonly flowId: string;
  readonly item: T;
  /** What the flow was charged when granted (its mean cost so far); corrected by `finish`. */
  readonly estimatedCost: number;
}

export interface FairGrantQueueOptions {
  /** Cost assumed for a request before any request has ended (e.g. in-flight ms). Default 1_000. */
  initialCost?: number;
}

/** One flow as `snapshot()` reports it. */
export interface GrantFlowSnapshot {
  flowId: string;
  weight: number;
  priority: number;
  /** Requests waiting for a grant. */
  waiting: number;
  /** Requests granted and not finished. */
  inService: number;
  /** Requests granted so far (since the flow was last forgotten as idle). */
  granted: number;
  /** Real cost of its finished requests, summed over the same span. */
  charged: number;
}

/** Weight of the newest request in the running mean of a flow's cost per request. */
const COST_SMOOTHING = 0.2;

/** Flows remembered before idle ones are forgotten. */
const KEEP_IDLE_FLOWS = 64;

/**
 * Weighted fair order of grants of a shared capacity (inference in-flight slots) between flows,
 * over the start-time fair queuing of `fair-queue.ts`: strict priority tiers, then the flow with
 * the lowest virtual tag; FIFO within a flow. Granting charges the flow its mean cost per request
 * ÷ weight; `finish` replaces the estimate with the real cost, so backlogged flows get capacity
 * (cost) in proportion to their weights whatever their requests' lengths. Bookkeeping only: no
 * clock, no I/O — the caller decides when capacity is free and what a request cost.
 */
export class FairGrantQueue<T> {
  #state: FairQueueState = emptyFairQueue();
  readonly #waiting = new Map<string, T[]>();
  readonly #meanCost = new Map<string, number>();
  readonly #totals = new Map<string, { granted: number; charged: number }>();
  #overallMean: number | null = null;
  readonly #initialCost: number;

  constructor(options: FairGrantQueueOptions = {}) {
    this.#initialCost = options.initialCost ?? 1_000;
  }

  /** Requests waiting for a grant, over every flow. */
  get waitingCount(): number {
    let count = 0;
    for (const items of this.#waiting.values()) count += items.length;
    return count;
  }

  /** A request of `flow` waits for a grant (after the flow's earlier ones). */
  arrive(flow: GrantFlow, item: T): void {
    const weight = Number.isFinite(flow.weight) && flow.weight > 0 ? flow.weight : 1;
    this.#state = arriveUnit(this.#state, flow.flowId, {
      weight,
      priority: flow.priority,
      maxInService: null,
    });
    const items = this.#waiting.get(flow.flowId);
    if (items) items.push(item);
    else this.#waiting.set(flow.flowId, [item]);
  }

  /** A waiting request leaves without a grant (cancelled, deadline). False when it was not waiting. */
  withdraw(flowId: string, item: T): boolean {
    const items = this.#waiting.get(flowId);
    const index = items?.indexOf(item) ?? -1;
    if (!items || index < 0) return false;
    items.splice(index, 1);
    if (items.length === 0) this.#waiting.delete(flowId);
    this.#state = withdrawUnit(this.#state, flowId);
    this.#pruneIdle();
    return true;
  }

  /** Grants the request that goes next, or null when none waits. */
  grantNext(): Grant<T> | null {
    const flow = pickFlow(this.#state);
    if (!flow) return null;
    const items = this.#waiting.get(flow.id);
    const item = items?.shift();
    if (items?.length === 0) this.#waiting.delete(flow.id);
    if (item === undefined) {
      this.#state = withdrawUnit(this.#state, flow.id); // cannot happen: counts and lists agree
      return this.grantNext();
    }
    const estimatedCost = estimateCost(
      this.#meanCost.get(flow.id) ?? null,
      this.#overallMean,
      this.#initialCost,
    );
    this.#state = dispatchUnit(this.#state, flow.id, estimatedCost);
    const totals = this.#totals.get(flow.id) ?? { granted: 0, charged: 0 };
    totals.granted += 1;
    this.#totals.set(flow.id, totals);
    return { flowId: flow.id, item, estimatedCost };
  }

  /** A granted request ended having cost `actualCost` (0 gives its whole charge back). */
  finish(grant: Grant<T>, actualCost: number): void {
    const cost = Math.max(0, actualCost);
    this.#state = finishUnit(this.#state, grant.flowId, cost, grant.estimatedCost);
    const totals = this.#totals.get(grant.flowId);
    if (totals) totals.charged += cost;
    if (cost > 0) {
      const mean = this.#meanCost.get(grant.flowId);
      this.#meanCost.set(grant.flowId, mean === undefined ? cost : mean + COST_SMOOTHING * (cost - mean));
      const overall = this.#overallMean;
      this.#overallMean = overall === null ? cost : overall + COST_SMOOTHING * (cost - overall);
    }
    this.#pruneIdle();
  }

  /** Every flow known, highest priority and most behind first. */
  snapshot(): GrantFlowSnapshot[] {
    return [...this.#state.flows.values()].sort(compareFlows).map((flow) => ({
      flowId: flow.id,
      weight: flow.weight,
      priority: flow.priority,
      waiting: flow.waiting,
      inService: flow.inService,
      granted: this.#totals.get(flow.id)?.granted ?? 0,
      charged: this.#totals.get(flow.id)?.charged ?? 0,
    }));
  }

  /**
   * Forgets idle flows once there are many (finished runs do not accumulate); below that a run
   * between two turns keeps its mean cost and totals.
   */
  #pruneIdle(): void {
    if (this.#state.flows.size <= KEEP_IDLE_FLOWS) return;
    this.#state = pruneIdleFlows(this.#state);
    for (const flowId of [...this.#totals.keys()]) {
      if (this.#state.flows.has(flowId)) continue;
      this.#totals.delete(flowId);
      this.#meanCost.delete(flowId);
    }
  }
}
