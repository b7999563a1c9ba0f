import {
  FairGrantQueue,
  type GenerationFlow,
  type GenerationFlowResolver,
  type Grant,
  type GrantFlowSnapshot,
} from "@raas/engine";
import { type InferenceFailure, inferenceFailure } from "../inference-failure";

/** Fair sharing of the backends' in-flight capacity between training runs. */
export interface InflightFairShareOptions {
  /** In-flight time assumed for a request before any request has ended, in ms. Default 1_000. */
  initialCostMs?: number;
}

/** The in-flight capacity and who waits for it, as `RoutedInferencePool.inflightShare()` reports it. */
export interface InflightShareSnapshot {
  /** Sum of `maxConcurrency` over the backends that can take traffic. */
  capacity: number;
  /** Requests granted and not ended. */
  inFlight: number;
  /** Per run: waiting, in flight, granted and in-flight ms charged (`charged`). */
  flows: GrantFlowSnapshot[];
}

/** The flow of requests whose job no resolver knows: one class of weight 1. */
const NO_RUN: GenerationFlow = { flowId: "", weight: 1, priority: 0 };

/**
 * How long a reading of the capacity is reused, in ms: reading it walks every backend's statistics,
 * too slow for every request; changes the pool makes itself are announced with `pump(true)`, and
 * the rest (a circuit opening on failures or half-opening with time) is seen this late.
 */
const CAPACITY_TTL_MS = 100;

/** Longest delay a Node timer takes (about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

interface Waiter {
  jobId: string;
  grant: (ticket: InflightTicket) => void;
}

/** A request's hold on one unit of in-flight capacity; give it back with `leave`. */
export interface InflightTicket {
  readonly grant: Grant<Waiter>;
  readonly grantedAtMs: number;
}

/**
 * Holds generation requests while the backends' in-flight capacity (the sum of their
 * `maxConcurrency`) is taken, and grants freed capacity in weighted-fair order between runs (the
 * engine's `FairGrantQueue`: priority tiers, then the run most behind its share; requests of no
 * run form one class). A request is charged the time it held its capacity, so backlogged runs get
 * in-flight time in proportion to their shares. With no backend able to take traffic nothing is
 * held: the pool's outage handling decides.
 */
export class InflightShareGate {
  readonly #queue: FairGrantQueue<Waiter>;
  readonly #capacity: () => number;
  readonly #now: () => number;
  #flowOf: GenerationFlowResolver = () => null;
  #inFlight = 0;
  #capacityRead: { value: number; atMs: number } | null = null;

  constructor(options: InflightFairShareOptions, capacity: () => number, now: () => number) {
    this.#queue = new FairGrantQueue({ initialCost: options.initialCostMs ?? 1_000 });
    this.#capacity = capacity;
    this.#now = now;
  }

  resolveFlowsWith(flowOf: GenerationFlowResolver): void {
    this.#flowOf = flowOf;
  }

  /**
   * Waits for a unit of capacity (at once when there is room and nobody waits). Rejects with an
   * `aborted` failure as soon as `signal` aborts and a `deadline` failure at `deadlineMs`.
   */
  enter(jobId: string, signal: AbortSignal | undefined, deadlineMs: number): Promise<InflightTicket> {
    if (signal?.aborted) return Promise.reject(abortedFailure(jobId));
    const flow = this.#flowOf(jobId) ?? NO_RUN;
    return new Promise<InflightTicket>((resolve, reject) => {
      const waiter: Waiter = {
        jobId,
        grant: (ticket) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve(ticket);
        },
      };
      const leaveWith = (failure: InferenceFailure) => {
        if (!this.#queue.withdraw(flow.flowId, waiter)) return;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        reject(failure);
      };
      const onAbort = () => leaveWith(abortedFailure(jobId));
      const timer = setTimeout(
        () =>
          leaveWith(
            inferenceFailure("deadline", `deadline passed while job ${jobId} waited for in-flight capacity`),
          ),
        Math.min(MAX_TIMER_MS, Math.max(0, deadlineMs - this.#now())),
      );
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.arrive(flow, waiter);
      this.pump();
    });
  }

  /**
   * Gives the capacity back: the run is charged the time it was held, or nothing when `isUsed` is
   * false (the request was never sent).
   */
  leave(ticket: InflightTicket, isUsed = true): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.#queue.finish(ticket.grant, isUsed ? Math.max(1, this.#now() - ticket.grantedAtMs) : 0);
    this.pump();
  }

  /**
   * Grants waiting requests while there is room. Call it with `isCapacityChanged` when backends
   * were registered, removed, drained, resumed or health-checked.
   */
  pump(isCapacityChanged = false): void {
    if (isCapacityChanged) this.#capacityRead = null;
    while (this.#queue.waitingCount > 0) {
      const capacity = this.#currentCapacity();
      if (capacity > 0 && this.#inFlight >= capacity) return;
      const grant = this.#queue.grantNext();
      if (!grant) return;
      this.#inFlight += 1;
      grant.item.grant({ grant, grantedAtMs: this.#now() });
    }
  }

  snapshot(): InflightShareSnapshot {
    return { capacity: this.#currentCapacity(), inFlight: this.#inFlight, flows: this.#queue.snapshot() };
  }

  #currentCapacity(): number {
    const nowMs = this.#now();
    const read = this.#capacityRead;
    if (read && nowMs - read.atMs < CAPACITY_TTL_MS && nowMs >= read.atMs) return read.value;
    const value = this.#capacity();
    this.#capacityRead = { value, atMs: nowMs };
    return value;
  }
}

function abortedFailure(jobId: string): InferenceFailure {
  return inferenceFailure("aborted", `generation for job ${jobId} aborted`);
}
