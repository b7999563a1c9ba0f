import { newId, STAGES, type TStage } from "@raas/shared";
import type { EngineLogger, EngineOptions } from "../engine.types";
import type { HandlerRegistry } from "../handler-registry";
import { JobTable } from "../lifecycle/job-table";
import { SandboxRegistry } from "../lifecycle/sandbox-registry";
import { PolicyClockHolds } from "../lifecycle/stage-clock-hold";
import { StatsTracker } from "../lifecycle/stats-tracker";
import { StoreWriter } from "../lifecycle/store-writer";
import { MemoryEventBus } from "../memory/memory-event-bus";
import { type Clock, systemClock } from "../ports/clock.port";
import type { EventBus } from "../ports/event-bus.port";
import type { JobQueue } from "../ports/job-queue.port";
import type { JobStore } from "../ports/job-store.port";
import { StoreHealth } from "../store-health/store-health";
import { imageOfJob, JobImageQueue } from "./job-image-queue";

/** The resources every system of one engine shares (trigger.dev's run-engine `SystemResources`). */
export interface EngineContext {
  /** This process's identity: queue items of the sandboxes it holds are addressed to it. */
  readonly workerId: string;
  readonly store: JobStore;
  readonly queue: JobQueue;
  readonly bus: EventBus;
  /** True when the bus was given (shared with other processes): job events are published on it. */
  readonly isBusShared: boolean;
  readonly writer: StoreWriter;
  /** Whether the store is reachable (shared with the database client and the worker's health). */
  readonly storeHealth: StoreHealth;
  readonly handlers: HandlerRegistry;
  readonly clock: Clock;
  readonly logger: EngineLogger | undefined;
  readonly inference: EngineOptions["inference"];
  readonly stats: StatsTracker;
  readonly jobs: JobTable;
  readonly sandboxes: SandboxRegistry;
  readonly leaseMs: number;
  readonly timeouts: ReadonlyMap<TStage, number>;
  /** Starts of a job (INIT attempts) before a lost sandbox fails it as `sandbox`. */
  readonly maxAttempts: number;
  /** Per policy: held while its generation is paused for a weight sync (its jobs' RUN budgets stop). */
  readonly clockHolds: PolicyClockHolds;
}

const DEFAULT_POOLS: Record<TStage, { concurrency: number; timeoutMs: number }> = {
  init: { concurrency: 64, timeoutMs: 300_000 },
  run: { concurrency: 64, timeoutMs: 3_600_000 },
  eval: { concurrency: 64, timeoutMs: 1_800_000 },
};

/** Stage pool settings with the defaults applied (INIT 64 / 300 s, RUN 64 / 3600 s, EVAL 64 / 1800 s). */
export function poolSettings(
  options: EngineOptions,
): Array<{ stage: TStage; concurrency: number; timeoutMs: number }> {
  return STAGES.map((stage) => ({ stage, ...DEFAULT_POOLS[stage], ...options.pools?.[stage] }));
}

/** The shared resources of one engine, every option defaulted here and nowhere else. */
export function createEngineContext(options: EngineOptions): EngineContext {
  const clock = options.clock ?? systemClock;
  const jobs = new JobTable(10_000);
  const storeHealth =
    options.storeHealth ?? new StoreHealth({ clock, ...(options.logger && { logger: options.logger }) });
  return {
    workerId: options.workerId ?? newId("wrk"),
    store: options.store,
    queue: new JobImageQueue(options.queue, (jobId) => imageOfJob(options.handlers, jobs.live.get(jobId))),
    bus: options.bus ?? new MemoryEventBus(),
    isBusShared: options.bus !== undefined,
    writer: new StoreWriter(
      options.store,
      { ...options.writeBatch, health: storeHealth, clock },
      options.logger,
    ),
    storeHealth,
    handlers: options.handlers,
    clock,
    logger: options.logger,
    inference: options.inference,
    stats: new StatsTracker({
      windowMs: options.throughputWindowMs ?? 60_000,
      sampleEveryMs: options.sampleEveryMs ?? 2_000,
      nowMs: clock.now(),
    }),
    jobs,
    sandboxes: new SandboxRegistry(),
    leaseMs: options.leaseMs ?? 60_000,
    timeouts: new Map(poolSettings(options).map(({ stage, timeoutMs }) => [stage, timeoutMs])),
    maxAttempts: options.maxAttempts ?? 3,
    clockHolds: new PolicyClockHolds(),
  };
}
