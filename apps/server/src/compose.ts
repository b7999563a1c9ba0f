import {
  createSleepHandler,
  type EngineLogger,
  type EngineOptions,
  HandlerRegistry,
  type JobQueue,
  type JobStore,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
  type TaskHandler,
} from "@raas/engine";

/** Where jobs are stored. */
export type StoreConfig =
  | { kind: "memory" }
  /** PostgreSQL when `databaseUrl` is set, else embedded PGlite under `dataDir`. */
  | { kind: "db"; databaseUrl?: string; dataDir: string };

export interface ComposeOptions {
  store: StoreConfig;
  /** Per-stage concurrency and timeouts; engine defaults where omitted. */
  pools?: EngineOptions["pools"];
  /** Extra task handlers besides the diagnostic `sleep` handler. */
  handlers?: TaskHandler[];
  logger: EngineLogger;
}

export interface ComposedEngine {
  engine: RolloutEngine;
  store: JobStore;
  queue: JobQueue;
  /** Which store actually serves (differs from the request while `@raas/db` is missing). */
  storeKind: "memory" | "pglite" | "postgres";
  /** Closes queue and store; stop the engine first. */
  close(): Promise<void>;
}

/** Composition root of the engine: picks adapters and hands them to `RolloutEngine`. */
export async function composeEngine(options: ComposeOptions): Promise<ComposedEngine> {
  const { store, storeKind } = await createStore(options.store, options.logger);
  const queue = new MemoryJobQueue();
  const handlers = new HandlerRegistry().register(createSleepHandler());
  for (const handler of options.handlers ?? []) handlers.register(handler);
  const engine = new RolloutEngine({
    store,
    queue,
    handlers,
    logger: options.logger,
    ...(options.pools ? { pools: options.pools } : {}),
  });
  return {
    engine,
    store,
    queue,
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
): Promise<{ store: JobStore; storeKind: ComposedEngine["storeKind"] }> {
  if (config.kind === "memory") return { store: new MemoryJobStore(), storeKind: "memory" };
  // TODO(lead): switch to `@raas/db` once it exports `createJobStore({ databaseUrl, dataDir })`:
  //   const { createJobStore } = await import("@raas/db");
  //   const store = await createJobStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  //   return { store, storeKind: config.databaseUrl ? "postgres" : "pglite" };
  // Until then the durable store is not available and jobs live in memory.
  logger.warn(
    { requested: config.databaseUrl ? "postgres" : "pglite", dataDir: config.dataDir },
    "durable job store not available yet (@raas/db pending); using the in-memory store",
  );
  return { store: new MemoryJobStore(), storeKind: "memory" };
}
