// The simulated cluster's defaults, owned here. Central-service figures are assumptions for a
// same-rack deployment, not measurements: one PostgreSQL primary committing 5,000 small
// transactions/s with a 1 ms round trip, one Redis running 20,000 BullMQ scripts/s at 0.3 ms.
// `npm run bench -- scale-sim --store-writes-per-sec … --redis-ops-per-sec …` varies them.
import { SWE_STAGE_PROFILE, stageBoundJobsPerSec } from "./profile";
import type { TScaleSimConfig } from "./scale-sim.types";

export const DEFAULT_SIM_NODES = [1, 2, 4, 8, 16, 32, 64] as const;
/** Past 64: where the central services saturate. */
export const DEFAULT_PROBE_NODES = [128, 256, 512] as const;

/** Jobs measured per row; the window is as long as the ideal cluster needs for that many. */
export const DEFAULT_JOBS_PER_ROW = 20_000;

export function defaultScaleSimConfig(
  nodes: number,
  overrides: Partial<Omit<TScaleSimConfig, "nodes">> = {},
  jobsPerRow = DEFAULT_JOBS_PER_ROW,
): TScaleSimConfig {
  const pools = overrides.pools ?? { init: 16, run: 64, eval: 16 };
  const profile = overrides.profile ?? SWE_STAGE_PROFILE;
  const idealJobsPerSec = nodes * stageBoundJobsPerSec(profile, pools);
  return {
    nodes,
    pools,
    profile,
    store: { latencyMs: 1, opsPerSec: 5_000 },
    redis: { latencyMs: 0.3, opsPerSec: 20_000 },
    // As the engine and queue do: WorkerHeartbeat every 3 s, leases of 60 s extended at half,
    // BullMQ's stalled check every 5 s, a blocking reserve of at most 1 s.
    heartbeatIntervalMs: 3_000,
    leaseRenewIntervalMs: 30_000,
    stalledCheckIntervalMs: 5_000,
    queuesPerWorker: 5,
    idleReserveIntervalMs: 1_000,
    affinity: true,
    // Enough that every INIT slot finds work: the pools' total plus a quarter.
    outstandingPerNode: Math.ceil(1.25 * (pools.init + pools.run + pools.eval)),
    batchJobs: 0,
    warmupMs: 15 * 60_000,
    windowMs: Math.max(10 * 60_000, (jobsPerRow / idealJobsPerSec) * 1_000),
    seed: 11,
    ...overrides,
  };
}
