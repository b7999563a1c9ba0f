import type { TStage } from "@raas/shared";
import type { EngineLogger, EngineOptions } from "../engine.types";
import type { HandlerRegistry } from "../handler-registry";
import type { JobTable } from "../lifecycle/job-table";
import type { SandboxRegistry } from "../lifecycle/sandbox-registry";
import type { StatsTracker } from "../lifecycle/stats-tracker";
import type { StoreWriter } from "../lifecycle/store-writer";
import type { Clock } from "../ports/clock.port";
import type { EventBus } from "../ports/event-bus.port";
import type { JobQueue } from "../ports/job-queue.port";
import type { JobStore } from "../ports/job-store.port";

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
}
