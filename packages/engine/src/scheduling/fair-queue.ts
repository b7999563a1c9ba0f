/**
 * Weighted fair queuing between flows (training runs), as pure functions over plain data: start-time
 * fair queuing (Goyal et al., SFQ) with priority tiers, a cap on units in service per flow and a cost
 * correction once a unit's real cost is known.
 *
 * Each flow has a virtual start tag: the virtual time at which its next unit may start. Dispatching
 * a unit of estimated cost `c` advances the flow's tag by `c / weight`; the scheduler always serves
 * the eligible flow with the highest priority and, within it, the lowest tag. A flow that was idle
 * restarts at the system's virtual time — the lowest tag among flows with units waiting, counting
 * only the units that ended (estimates of units still in service are not yet real cost), else the
 * tag of the last unit dispatched — so idling earns no credit and costs no debt, and a too-high
 * first estimate of another flow never leaves a newcomer behind an inflated clock. When the unit ends, the difference between its real and estimated cost
 * is charged (`finishUnit`), so over time each backlogged flow's real cost (slot-time) is
 * proportional to its weight, whatever its units' lengths.
 */

/** How a flow is to be treated: its weight, priority tier and cap. */
export interface FlowShare {
  /** Relative share of capacity within its priority tier (> 0). */
  weight: number;
  /** Higher tiers are served first; weighted fair queuing within a tier. */
  priority: number;
  /** Most units in service at once (a run's sandboxes); null: no cap. */
  maxInService: number | null;
}

export interface FlowState extends FlowShare {
  id: string;
  /** Virtual start tag of the flow's next unit (cost units per weight). */
  startTag: number;
  /** Units waiting to be dispatched. */
  waiting: number;
  /** Units dispatched and not finished. */
  inService: number;
  /** The part of `startTag` that is estimates of units still in service. */
  pendingTag: number;
  /** First-arrival order: breaks ties between equal tags. */
  arrival: number;
}

export interface FairQueueState {
  /** The start tag of the unit dispatched last. */
  virtualTime: number;
  flows: ReadonlyMap<string, FlowState>;
  nextArrival: number;
}

export function emptyFairQueue(): FairQueueState {
  return { virtualTime: 0, flows: new Map(), nextArrival: 0 };
}

function withFlow(state: FairQueueState, flow: FlowState, virtualTime = state.virtualTime): FairQueueState {
  const flows = new Map(state.flows);
  flows.set(flow.id, flow);
  return { ...state, flows, virtualTime };
}

/** True when the flow may have a unit dispatched now. */
export function isEligible(flow: FlowState): boolean {
  return flow.waiting > 0 && (flow.maxInService === null || flow.inService < flow.maxInService);
}

/** Strict order of service: higher priority, then lower start tag, then earlier arrival. */
export function compareFlows(a: FlowState, b: FlowState): number {
  return b.priority - a.priority || a.startTag - b.startTag || a.arrival - b.arrival;
}

/** The flow whose unit goes next, or null when no flow is eligible. */
export function pickFlow(state: FairQueueState): FlowState | null {
  let best: FlowState | null = null;
  for (const flow of state.flows.values()) {
    if (isEligible(flow) && (best === null || compareFlows(flow, best) < 0)) best = flow;
  }
  return best;
}

/** Where a flow that starts or resumes now begins: the lowest tag among other backlogged flows. */
function systemVirtualTime(state: FairQueueState, exceptFlowId?: string): number {
  let lowest = Number.POSITIVE_INFINITY;
  for (const flow of state.flows.values()) {
    if (flow.id !== exceptFlowId && flow.waiting > 0)
      lowest = Math.min(lowest, flow.startTag - flow.pendingTag);
  }
  return Number.isFinite(lowest) ? lowest : state.virtualTime;
}

/**
 * A unit arrives for `flowId` (created with `share` if new; a known flow takes the newest share).
 * A flow with nothing waiting restarts at the system's virtual time if it is behind it.
 */
export function arriveUnit(state: FairQueueState, flowId: string, share: FlowShare): FairQueueState {
  const known = state.flows.get(flowId);
  if (!known) {
    const flow: FlowState = {
      id: flowId,
      ...share,
      startTag: systemVirtualTime(state),
      waiting: 1,
      inService: 0,
      pendingTag: 0,
      arrival: state.nextArrival,
    };
    return { ...withFlow(state, flow), nextArrival: state.nextArrival + 1 };
  }
  const startTag =
    known.waiting === 0 ? Math.max(known.startTag, systemVirtualTime(state, flowId)) : known.startTag;
  return withFlow(state, { ...known, ...share, startTag, waiting: known.waiting + 1 });
}

/** A waiting unit left without being served (cancelled while held). */
export function withdrawUnit(state: FairQueueState, flowId: string): FairQueueState {
  const flow = state.flows.get(flowId);
  if (!flow || flow.waiting === 0) return state;
  return withFlow(state, { ...flow, waiting: flow.waiting - 1 });
}

/** Dispatches one unit of `flowId` with estimated cost `estimatedCost`. */
export function dispatchUnit(state: FairQueueState, flowId: string, estimatedCost: number): FairQueueState {
  const flow = state.flows.get(flowId);
  if (!flow || flow.waiting === 0) return state;
  const virtualTime = flow.startTag;
  const charge = Math.max(0, estimatedCost) / flow.weight;
  return withFlow(
    state,
    {
      ...flow,
      startTag: flow.startTag + charge,
      pendingTag: flow.pendingTag + charge,
      waiting: flow.waiting - 1,
      inService: flow.inService + 1,
    },
    virtualTime,
  );
}

/** A dispatched unit ended: charges the difference between its real and estimated cost. */
export function finishUnit(
  state: FairQueueState,
  flowId: string,
  actualCost: number,
  estimatedCost: number,
): FairQueueState {
  const flow = state.flows.get(flowId);
  if (!flow) return state;
  const estimate = Math.max(0, estimatedCost) / flow.weight;
  const startTag = flow.startTag + Math.max(0, actualCost) / flow.weight - estimate;
  const inService = Math.max(0, flow.inService - 1);
  const pendingTag = inService === 0 ? 0 : Math.max(0, flow.pendingTag - estimate);
  return withFlow(state, { ...flow, startTag, pendingTag, inService });
}

/**
 * Forgets flows with nothing waiting or in service whose tag the virtual time has passed (they
 * would restart at the virtual time anyway), so finished runs do not accumulate.
 */
export function pruneIdleFlows(state: FairQueueState): FairQueueState {
  let flows: Map<string, FlowState> | null = null;
  for (const flow of state.flows.values()) {
    if (flow.waiting === 0 && flow.inService === 0 && flow.startTag <= state.virtualTime) {
      flows ??= new Map(state.flows);
      flows.delete(flow.id);
    }
  }
  return flows ? { ...state, flows } : state;
}

/**
 * Expected cost of a flow's next unit: the flow's own running mean once it has one, else the mean
 * over all flows, else `fallback`.
 */
export function estimateCost(flowMean: number | null, overallMean: number | null, fallback: number): number {
  return flowMean ?? overallMean ?? fallback;
}
