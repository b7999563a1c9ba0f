import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  type AnyTaskHandler,
  type BenchmarkRunStore,
  createSleepHandler,
  type EngineLogger,
  type EngineOptions,
  HandlerRegistry,
  type JobQueue,
  type JobStore,
  MemoryBenchmarkRunStore,
  MemoryJobQueue,
  MemoryJobStore,
  MemorySandboxEventStore,
  MemoryWorkerStore,
  RolloutEngine,
  type SandboxEventStore,
  type WorkerStore,
} from "@raas/engine";

/** Where jobs are stored. */
export type StoreConfig =
  | { kind: "memory" }
  /** PostgreSQL when `databaseUrl` is set, else embedded PGlite under `<dataDir>/pglite`. */
  | { kind: "db"; databaseUrl?: string; dataDir: string };

export interface ComposeOptions {
  store: StoreConfig;
  /** Per-stage concurrency and timeouts; engine defaults where omitted. */
  pools?: EngineOptions["pools"];
  /** Extra task handlers besides the diagnostic `sleep` handler. */
  handlers?: AnyTaskHandler[];
  logger: EngineLogger;
  /** The inference pool: told when a job ends, so that its sticky backend is released. */
  inference?: EngineOptions["inference"];
  /** This process's worker id (jobs' stage handoffs name it; `recoverWorker` finds a lost one's). */
  workerId?: string;
}

export interface ComposedEngine {
  engine: RolloutEngine;
  store: JobStore;
  queue: JobQueue;
  /** Benchmark runs and their per-instance results, in the same store as the jobs. */
  benchmarks: BenchmarkRunStore;
  /** Sandbox lifecycle events and one row per sandbox, in the same store as the jobs. */
  sandboxEvents: SandboxEventStore;
  /** The worker registry (heartbeats, drain, lost), in the same store as the jobs. */
  workers: WorkerStore;
  /** Which store serves: memory, embedded PGlite (under `<dataDir>/pglite`) or PostgreSQL. */
  storeKind: "memory" | "pglite" | "postgres";
  /** Closes queue and store; stop the engine first. */
  close(): Promise<void>;
}

/** Composition root of the engine: picks adapters and hands them to `RolloutEngine`. */
export async function composeEngine(options: ComposeOptions): Promise<ComposedEngine> {
  const { store, benchmarks, sandboxEvents, workers, storeKind } = await createStore(
    options.store,
    options.logger,
  );
  const queue = new MemoryJobQueue();
  const handlers = new HandlerRegistry().register(createSleepHandler());
  for (const handler of options.handlers ?? []) handlers.register(handler);
  const engine = new RolloutEngine({
    store,
    queue,
    handlers,
    logger: options.logger,
    ...(options.inference ? { inference: options.inference } : {}),
    ...(options.workerId !== undefined && { workerId: options.workerId }),
    ...(options.pools ? { pools: options.pools } : {}),
  });
  return {
    engine,
    store,
    queue,
    benchmarks,
    sandboxEvents,
    workers,
    storeKind,
    async close() {
      await queue.close();
      await store.close();
    },
  };
}

async function createStore(
  config: StoreConfig,
  logger: EngineLogger,
): Promise<Pick<ComposedEngine, "store" | "benchmarks" | "sandboxEvents" | "workers" | "storeKind">> {
  if (config.kind === "memory") {
    return {
      store: new MemoryJobStore(),
      benchmarks: new MemoryBenchmarkRunStore(),
      sandboxEvents: new MemorySandboxEventStore(),
      workers: new MemoryWorkerStore(),
      storeKind: "memory",
    };
  }
  // Loaded only when used: Prisma and PGlite cost start-up time a memory-store server does not need.
  const {
    createJobStore,
    PrismaBenchmarkRunStore,
    PrismaSandboxEventStore,
    PrismaWorkerStore,
    makePrivateDir,
    restrictTreeToOwner,
  } = await import("@raas/db");
  // The data directory holds the database and the admin token: owner-only, tightened at every start.
  if (!config.databaseUrl || existsSync(config.dataDir)) {
    await makePrivateDir(config.dataDir);
    await restrictTreeToOwner(config.dataDir);
  }
  const store = await createJobStore({
    ...(config.databaseUrl
      ? { databaseUrl: config.databaseUrl }
      : { dataDir: join(config.dataDir, "pglite") }),
    logger,
  });
  return {
    store,
    // Shares the job store's client (and so its connection pool); closing it is the job store's job.
    benchmarks: new PrismaBenchmarkRunStore(store.prisma),
    sandboxEvents: new PrismaSandboxEventStore(store.prisma),
    workers: new PrismaWorkerStore(store.prisma),
    storeKind: config.databaseUrl ? "postgres" : "pglite",
  };
}
