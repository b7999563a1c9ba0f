import { type Clock, systemClock } from "../ports/clock.port";
import type { WorkerRecord, WorkerStore } from "../ports/worker-store.port";
import { DEFAULT_MISSED_AFTER_MS } from "./worker-defaults";

export interface LiveSlotsOptions {
  nowMs: number;
  /** A worker silent for longer than this counts for nothing (it is about to be marked lost), in ms. */
  missedAfterMs: number;
  /** Left out (the engine asking counts its own slots itself). */
  exceptWorkerId?: string;
}

/**
 * The INIT + RUN slots of the workers that take new work, from their last heartbeats: `active`
 * (not draining, stopped or lost), healthy (no `unhealthyReason`), heard from within
 * `missedAfterMs`, and with INIT slots — a worker whose INIT pool is at 0 (drained, or stopped
 * taking work) starts no new job, so its RUN slots only serve the jobs it already holds.
 */
export function liveWorkerSlots(workers: readonly WorkerRecord[], options: LiveSlotsOptions): number {
  let slots = 0;
  for (const worker of workers) {
    if (worker.id === options.exceptWorkerId || worker.status !== "active" || worker.unhealthyReason)
      continue;
    if (options.nowMs - worker.heartbeatAtMs > options.missedAfterMs) continue;
    const init = worker.pools.init?.concurrency ?? 0;
    if (init <= 0) continue;
    slots += init + (worker.pools.run?.concurrency ?? 0);
  }
  return slots;
}

/**
 * `FairShareOptions.capacity` over the worker registry: the other live workers' INIT + RUN slots
 * (`liveWorkerSlots`), read from the store on each call.
 */
export function workerCapacity(
  store: Pick<WorkerStore, "list">,
  options: { exceptWorkerId?: string; missedAfterMs?: number; clock?: Clock } = {},
): () => Promise<number> {
  const clock = options.clock ?? systemClock;
  return async () =>
    liveWorkerSlots(await store.list(), {
      nowMs: clock.now(),
      missedAfterMs: options.missedAfterMs ?? DEFAULT_MISSED_AFTER_MS,
      ...(options.exceptWorkerId !== undefined && { exceptWorkerId: options.exceptWorkerId }),
    });
}
