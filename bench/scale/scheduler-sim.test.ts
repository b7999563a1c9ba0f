import { describe, expect, it } from "vitest";
import { SWE_STAGE_PROFILE, stageBoundJobsPerSec, type TStageProfile } from "./profile";
import { defaultScaleSimConfig } from "./scale-defaults";
import type { TScaleSimConfig } from "./scale-sim.types";
import { simulateScheduler } from "./scheduler-sim";

const FREE = { latencyMs: 0, opsPerSec: Number.POSITIVE_INFINITY };
/** Fixed stage times (σ 0): the one-node bound is min(4/1 s, 8/10 s, 4/2 s) = 0.8 jobs/s, RUN-bound. */
const FIXED: TStageProfile = {
  init: { medianMs: 1_000, sigma: 0 },
  run: { medianMs: 10_000, sigma: 0 },
  eval: { medianMs: 2_000, sigma: 0 },
  msPerTurn: 1_000,
};
const FIXED_POOLS = { init: 4, run: 8, eval: 4 };

function config(nodes: number, overrides: Partial<TScaleSimConfig> = {}): TScaleSimConfig {
  return defaultScaleSimConfig(
    nodes,
    { profile: FIXED, pools: FIXED_POOLS, store: FREE, redis: FREE, warmupMs: 120_000, ...overrides },
    4_000,
  );
}

describe("simulateScheduler", () => {
  it("one node at zero central cost runs at the closed-form bound of its slowest pool", () => {
    const bound = stageBoundJobsPerSec(FIXED, FIXED_POOLS);
    expect(bound).toBeCloseTo(0.8, 10);
    const result = simulateScheduler(config(1));
    expect(result.jobsPerSec / bound).toBeGreaterThan(0.99);
    expect(result.jobsPerSec / bound).toBeLessThan(1.01);
  });

  it("one node on the SWE profile matches the bound within sampling noise (and ProRL's 0.35/s)", () => {
    const pools = { init: 16, run: 64, eval: 16 };
    const bound = stageBoundJobsPerSec(SWE_STAGE_PROFILE, pools);
    const result = simulateScheduler(defaultScaleSimConfig(1, { store: FREE, redis: FREE }, 8_000));
    expect(result.completedInWindow).toBeGreaterThan(7_000);
    expect(Math.abs(result.jobsPerSec / bound - 1)).toBeLessThan(0.04);
    expect(Math.abs(bound - 0.35) / 0.35).toBeLessThan(0.05);
  });

  it("doubling nodes at zero central cost doubles throughput", () => {
    const [one, two, four] = [1, 2, 4].map((nodes) => simulateScheduler(config(nodes)).jobsPerSec);
    expect((two as number) / (one as number)).toBeCloseTo(2, 1);
    expect((four as number) / (one as number)).toBeCloseTo(4, 1);
  });

  it("a store with few commits/s caps throughput at its capacity over the writes each job needs", () => {
    const free = simulateScheduler(config(8));
    const limited = simulateScheduler(config(8, { store: { latencyMs: 1, opsPerSec: 40 } }));
    expect(limited.storeUtilisation).toBeGreaterThan(0.97);
    expect(limited.storeWritesPerSec).toBeLessThanOrEqual(40 * 1.001);
    // 8 nodes would do 6.4 jobs/s; 17 writes per job (3 take + 3 hand-off CAS, 1 insert, 10
    // turns) plus heartbeats and the server's sweep leave room for about 40 / 17.5 ≈ 2.3.
    expect(limited.jobsPerSec).toBeLessThan(free.jobsPerSec / 2);
    expect(limited.jobsPerSec * limited.storeWritesPerJob).toBeLessThanOrEqual(40 * 1.001);
    expect(free.storeWritesPerJob).toBeGreaterThan(17);
    expect(free.storeWritesPerJob).toBeLessThan(18);
  });

  it("synchronous steps too small for the cluster leave nodes idle: 8 nodes are far from 8x", () => {
    // 8 jobs a step: one node runs them in one RUN wave; eight nodes have nothing more to run.
    const [one, eight] = [1, 8].map((nodes) => simulateScheduler(config(nodes, { batchJobs: 8 })).jobsPerSec);
    expect((eight as number) / (one as number)).toBeLessThan(1.5);
    expect(one as number).toBeLessThan(0.8);
  });

  it("idle workers still cost Redis and the store: reserves, heartbeats, stalled checks, the sweep", () => {
    const idle = simulateScheduler(
      config(4, { outstandingPerNode: 0, store: { latencyMs: 1, opsPerSec: 1e6 } }),
    );
    expect(idle.completedInWindow).toBe(0);
    // Per worker and second: 3 idle stages re-block, 1/3 heartbeat publish, 5 queues / 5 s stalled check.
    expect(idle.redisOpsPerSec).toBeCloseTo(4 * (3 + 1 / 3 + 1), 1);
    // Heartbeats (1/3 s per worker) and the server's sweep (1/3 s).
    expect(idle.storeWritesPerSec).toBeCloseTo(4 / 3 + 1 / 3, 1);
  });

  it("the same seed gives the same run", () => {
    const a = simulateScheduler(defaultScaleSimConfig(2, { warmupMs: 60_000 }, 500));
    const b = simulateScheduler(defaultScaleSimConfig(2, { warmupMs: 60_000 }, 500));
    expect(a).toEqual(b);
  });
});
