import type { TStage } from "@raas/shared";
import { STAGES } from "../domain";

/** What a worker reports of its pools (`workers.list`): slots and jobs running per stage. */
export interface TWorkerPools {
  pools: Partial<Record<TStage, { concurrency: number; active: number }>>;
}

/** A worker's occupancy over all its stage pools: jobs running, slots, and the fraction in use. */
export interface TWorkerOccupancy {
  active: number;
  slots: number;
  /** `active / slots`; null for a worker that runs no pool (or only paused ones). */
  fraction: number | null;
}

export function workerOccupancy(worker: TWorkerPools): TWorkerOccupancy {
  let active = 0;
  let slots = 0;
  for (const stage of STAGES) {
    const pool = worker.pools[stage];
    if (!pool) continue;
    active += pool.active;
    slots += pool.concurrency;
  }
  return { active, slots, fraction: slots === 0 ? null : active / slots };
}
