import { existsSync } from "node:fs";
import { join } from "node:path";
import type { DatabaseOptions, TrajectoryArchive } from "@raas/db";
import {
  type AnyTaskHandler,
  type BackendRegistrationStore,
  type BenchmarkRunStore,
  createSleepHandler,
  type EngineLogger,
  type EngineOptions,
  type EnvironmentStore,
  type EventBus,
  type GatewayCallStore,
  HandlerRegistry,
  type JobQueue,
  type JobStore,
  MemoryBackendRegistrationStore,
  MemoryBenchmarkRunStore,
  MemoryEnvironmentStore,
  MemoryGatewayCallStore,
  MemoryJobQueue,
  MemoryJobStore,
  MemorySandboxEventStore,
  MemoryWorkerStore,
  RolloutEngine,
  type SandboxEventStore,
  StoreHealth,
  type WorkerStore,
  WriteBehindGatewayCallStore,
  workerCapacity,
} from "@raas/engine";
import type { TStage } from "@raas/shared";
import {
  type BatchStore,
  type CurriculumStore,
  MemoryBatchStore,
  MemoryCurriculumStore,
} from "@raas/training";
import { DEFAULT_STORE_WAIT_MS } from "./env/env-fields";

/** How long answered gateway calls gather before one grouped write to PostgreSQL. */
const GATEWAY_CALLS_GATHER_MS = 50;

/** Where jobs are stored. */
export type StoreConfig =
  | { kind: "memory" }
  /** PostgreSQL when `databaseUrl` is set, else embedded PGlite under `<dataDir>/pglite`. */
  | {
      kind: "db";
      databaseUrl?: string;
      dataDir: string;
      /** The embedded store's checkpoints and vacuums (PGlite only). Defaults: `PgliteMaintenanceOptions`. */
      pgliteMaintenance?: DatabaseOptions["pgliteMaintenance"];
      /**
       * PostgreSQL only: how long the start waits, with backoff, for a database it cannot reach
       * yet (one still starting) before it gives up, in ms. Default 60000; 0 does not wait.
       */
      waitMs?: number;
    };

/**
 * Where stage work is queued. `memory`: in this process (the embedded default). `redis`: the
 * shared Redis stage queues and event bus of distributed mode, where every process (server and
 * workers) takes work; it needs a PostgreSQL store all of them share.
 */
export type QueueConfig =
  | { kind: "memory" }
  /** `url` is `redis://[:password@]host:port[/db]`; `prefix` keeps deployments on one Redis apart (default `raas`). */
  | { kind: "redis"; url: string; prefix?: string };

export interface ComposeOptions {
  store: StoreConfig;
  /** Default `{ kind: "memory" }`. */
  queue?: QueueConfig;
  /** Per-stage concurrency and timeouts; engine defaults where omitted. */
  pools?: EngineOptions["pools"];
  /** Extra task handlers besides the diagnostic `sleep` handler. */
  handlers?: AnyTaskHandler[];
  logger: EngineLogger;
  /** The inference pool: told when a job ends, so that its sticky backend is released. */
  inference?: EngineOptions["inference"];
  /** This process's worker id (jobs' stage handoffs name it; `recoverWorker` finds a lost one's). */
  workerId?: string;
  /** Fair sharing between training runs (weighted fair queuing of INIT admission, preemption). Default off. */
  fairShare?: EngineOptions["fairShare"];
  /**
   * The stages whose items this process queues again from the store when Redis comes back empty.
   * Default every stage. A worker process leaves INIT to the control plane: its fair-share
   * admission knows which jobs stored as queued for INIT it still holds back (they had no item to
   * lose), and queuing those from a worker would release them all at once.
   */
  requeueStagesOnRestore?: readonly TStage[];
  /**
   * The images this process's image cache holds (`composeHeldImages(cache).list`), read at every
   * reserve so that the queue prefers jobs of those images (image-aware placement). Default none.
   */
  heldImages?: EngineOptions["heldImages"];
}

export interface ComposedEngine {
  engine: RolloutEngine;
  store: JobStore;
  queue: JobQueue;
  /** The bus shared with the other processes (distributed mode); null for the embedded default. */
  bus: EventBus | null;
  /** Benchmark runs and their per-instance results, in the same store as the jobs. */
  benchmarks: BenchmarkRunStore;
  /** Environments registered through the API, in the same store as the jobs. */
  environments: EnvironmentStore;
  /** Sandbox lifecycle events and one row per sandbox, in the same store as the jobs. */
  sandboxEvents: SandboxEventStore;
  /** The worker registry (heartbeats, drain, lost), in the same store as the jobs. */
  workers: WorkerStore;
  /** Training runs, steps, groups and the policy state (the batch system's), in the same store as the jobs. */
  batches: BatchStore;
  /** Per-task history and curriculum state (adaptive task sampling), in the same store as the jobs. */
  curriculum: CurriculumStore;
  /** The inference gateway's call records (harness jobs' traces), in the same store as the jobs. */
  gatewayCalls: GatewayCallStore;
  /** Backends registered, drained or removed through the API (distributed mode shares them), in the same store as the jobs. */
  backendRegistrations: BackendRegistrationStore;
  /** Which store serves: memory, embedded PGlite (under `<dataDir>/pglite`) or PostgreSQL. */
  storeKind: "memory" | "pglite" | "postgres";
  /**
   * Retention: trajectories of finished runs (and of finished steps, by a run's retention policy)
   * archived to gzip JSONL under `<dataDir>/archive`, and read back from there by this process's
   * store. Null with the memory store.
   */
  archive: Pick<TrajectoryArchive, "archiveRun" | "archiveJobs"> | null;
  /**
   * Whether this process reaches its store: fed by the database pool (every connection opened and
   * lost) and the engine's store retries; read by `/health`, metrics and the worker monitor.
   */
  storeHealth: StoreHealth;
  /** Closes queue, bus and store; stop the engine first. */
  close(): Promise<void>;
}

/** Composition root of the engine: picks adapters and hands them to `RolloutEngine`. */
export async function composeEngine(options: ComposeOptions): Promise<ComposedEngine> {
  const queueConfig = options.queue ?? { kind: "memory" };
  if (queueConfig.kind === "redis" && (options.store.kind !== "db" || !options.store.databaseUrl)) {
    throw new DistributedStoreError(
      "distributed mode (a Redis queue) needs a PostgreSQL store shared by every process: set DATABASE_URL=postgres://… (the embedded PGlite and the memory store live inside one process)",
    );
  }
  const {
    store,
    benchmarks,
    environments,
    sandboxEvents,
    workers,
    batches,
    curriculum,
    gatewayCalls,
    backendRegistrations,
    storeKind,
    archive,
    storeHealth,
    flushGatewayCalls,
  } = await createStore(options.store, options.logger);
  // A Redis back from an outage may have lost every item (no persistence): re-queue from the store.
  let onQueueRestored = () => {};
  const { queue, bus } = await createQueue(queueConfig, options.logger, () => onQueueRestored());
  const handlers = new HandlerRegistry().register(createSleepHandler());
  for (const handler of options.handlers ?? []) handlers.register(handler);
  const engine = new RolloutEngine({
    store,
    queue,
    handlers,
    logger: options.logger,
    storeHealth,
    // Other processes hold jobs too: recover only those no live worker holds (the monitor
    // recovers a lost worker's).
    ...(bus && { bus, recoverAtStart: "unheld" as const }),
    ...(options.inference ? { inference: options.inference } : {}),
    ...(options.workerId !== undefined && { workerId: options.workerId }),
    ...(options.pools ? { pools: options.pools } : {}),
    ...(options.heldImages && { heldImages: options.heldImages }),
    ...(options.fairShare ? { fairShare: withWorkerCapacity(options.fairShare, workers, bus, options) } : {}),
  });
  onQueueRestored = () => {
    const stages = options.requeueStagesOnRestore;
    engine.requeueQueuedJobs(stages ? { stages } : {}).catch((error: unknown) => {
      options.logger.error({ err: String(error) }, "re-queueing the queued jobs after a Redis outage failed");
    });
  };
  return {
    engine,
    store,
    queue,
    bus,
    benchmarks,
    environments,
    sandboxEvents,
    workers,
    batches,
    curriculum,
    gatewayCalls,
    backendRegistrations,
    storeKind,
    archive,
    storeHealth,
    async close() {
      // Calls already answered are stored before the store closes.
      await flushGatewayCalls();
      storeHealth.close();
      await queue.close();
      await bus?.close();
      await store.close();
    },
  };
}

/**
 * In distributed mode the admission window follows the other workers' INIT + RUN slots from their
 * heartbeats (the engine adds its own): an API-only server has none of its own, and a window of
 * its own slots alone would hold the cluster to one INIT at a time. A `capacity` given wins.
 */
function withWorkerCapacity(
  fairShare: NonNullable<EngineOptions["fairShare"]>,
  workers: WorkerStore,
  bus: EventBus | null,
  options: Pick<ComposeOptions, "workerId">,
): NonNullable<EngineOptions["fairShare"]> {
  if (!bus || fairShare.capacity !== undefined) return fairShare;
  return {
    ...fairShare,
    capacity: workerCapacity(workers, {
      ...(options.workerId !== undefined && { exceptWorkerId: options.workerId }),
    }),
  };
}

/** Distributed mode was asked for without a store every process can share. */
export class DistributedStoreError extends Error {
  override readonly name = "DistributedStoreError";
}

async function createQueue(
  config: QueueConfig,
  logger: EngineLogger,
  onRestored: () => void,
): Promise<{ queue: JobQueue; bus: EventBus | null }> {
  if (config.kind === "memory") return { queue: new MemoryJobQueue(), bus: null };
  // Loaded only when used: the embedded default never pays for BullMQ and ioredis.
  const { RedisEventBus, RedisJobQueue } = await import("@raas/queue");
  const onError = (component: string) => (message: string, error?: unknown) =>
    logger.warn({ component, err: error === undefined ? undefined : String(error) }, message);
  const common = { url: config.url, ...(config.prefix !== undefined && { prefix: config.prefix }) };
  return {
    queue: new RedisJobQueue({ ...common, onError: onError("queue"), onRestored }),
    bus: new RedisEventBus({ ...common, onError: onError("bus") }),
  };
}

async function createStore(
  config: StoreConfig,
  logger: EngineLogger,
): Promise<
  Pick<
    ComposedEngine,
    | "store"
    | "benchmarks"
    | "environments"
    | "sandboxEvents"
    | "workers"
    | "batches"
    | "curriculum"
    | "gatewayCalls"
    | "backendRegistrations"
    | "storeKind"
    | "archive"
    | "storeHealth"
  > & { flushGatewayCalls: () => Promise<void> }
> {
  if (config.kind === "memory") {
    return {
      store: new MemoryJobStore(),
      benchmarks: new MemoryBenchmarkRunStore(),
      environments: new MemoryEnvironmentStore(),
      sandboxEvents: new MemorySandboxEventStore(),
      workers: new MemoryWorkerStore(),
      batches: new MemoryBatchStore(),
      curriculum: new MemoryCurriculumStore(),
      gatewayCalls: new MemoryGatewayCallStore(),
      backendRegistrations: new MemoryBackendRegistrationStore(),
      storeKind: "memory",
      archive: null,
      storeHealth: new StoreHealth({ logger }),
      flushGatewayCalls: async () => {},
    };
  }
  // Loaded only when used: Prisma and PGlite cost start-up time a memory-store server does not need.
  const {
    createJobStore,
    PrismaBackendRegistrationStore,
    PrismaBatchStore,
    PrismaBenchmarkRunStore,
    PrismaCurriculumStore,
    PrismaEnvironmentStore,
    PrismaGatewayCallStore,
    PrismaSandboxEventStore,
    PrismaWorkerStore,
    makePrivateDir,
    restrictTreeToOwner,
    isDatabaseUnavailableError,
    waitForDatabase,
  } = await import("@raas/db");
  const storeHealth = new StoreHealth({ logger, isConnectionError: isDatabaseUnavailableError });
  // A database still starting (a host boot, an upgrade's restart) is waited for; a bad URL or login is not.
  if (config.databaseUrl) {
    await waitForDatabase(config.databaseUrl, { maxWaitMs: config.waitMs ?? DEFAULT_STORE_WAIT_MS, logger });
  }
  // The data directory holds the database and the admin token: owner-only, tightened at every start.
  if (!config.databaseUrl || existsSync(config.dataDir)) {
    await makePrivateDir(config.dataDir);
    await restrictTreeToOwner(config.dataDir);
  }
  const store = await createJobStore({
    ...(config.databaseUrl
      ? { databaseUrl: config.databaseUrl }
      : {
          dataDir: join(config.dataDir, "pglite"),
          ...(config.pgliteMaintenance && { pgliteMaintenance: config.pgliteMaintenance }),
        }),
    archiveDir: join(config.dataDir, "archive"),
    logger,
    health: storeHealth,
  });
  // While unreachable, a round trip every second tells when it is back (nothing else may ask).
  if (config.databaseUrl) storeHealth.probeWith(() => store.sql.query("SELECT 1", []));
  // A call's write (a round trip and a commit) goes behind its answer; every read of the job waits for it.
  // On PostgreSQL the calls of 50 ms go as one statement and one commit (a read hands them over at once).
  const gatewayCalls = new WriteBehindGatewayCallStore(
    new PrismaGatewayCallStore(store.sql, { maxCallsPerStatement: store.kind === "postgres" ? 64 : 1 }),
    {
      gatherMs: store.kind === "postgres" ? GATEWAY_CALLS_GATHER_MS : 0,
      onRetry: (error, call) =>
        logger.warn(
          { jobId: call.jobId, seq: call.seq, err: String(error) },
          "storing a gateway call failed; trying again",
        ),
    },
  );
  return {
    store,
    // Shares the job store's client (and so its connection pool); closing it is the job store's job.
    benchmarks: new PrismaBenchmarkRunStore(store.prisma),
    environments: new PrismaEnvironmentStore(store.prisma),
    sandboxEvents: new PrismaSandboxEventStore(store.prisma),
    workers: new PrismaWorkerStore(store.prisma),
    batches: new PrismaBatchStore(store.prisma),
    curriculum: new PrismaCurriculumStore(store.prisma),
    gatewayCalls,
    flushGatewayCalls: () => gatewayCalls.flush(),
    backendRegistrations: new PrismaBackendRegistrationStore(store.prisma),
    storeKind: config.databaseUrl ? "postgres" : "pglite",
    archive: store.archive,
    storeHealth,
  };
}
