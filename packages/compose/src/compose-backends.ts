import {
  BackendDirectory,
  type BackendRegistrationStore,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  type EngineLogger,
  type EventBus,
  type InferenceBackendRegistry,
  type WorkerStore,
} from "@raas/engine";

export interface ComposeBackendsOptions {
  /** This process's inference pool. */
  registry: InferenceBackendRegistry;
  /**
   * Distributed mode: the API's backend changes are kept in `store`, announced on `bus` and
   * applied by every process; null for the embedded default (changes live in this process, as
   * its one pool is the only one).
   */
  shared: {
    store: BackendRegistrationStore;
    bus: EventBus | null;
    /** Whose heartbeats carry the workers' backend views (the control plane merges them). Default none. */
    workers?: WorkerStore;
    /** This process's own worker id, left out of the merge. */
    selfWorkerId?: string | null;
    /** How often the stored backends are re-read, in ms. Default the heartbeat interval (3_000). */
    syncIntervalMs?: number;
    /** A worker silent this long no longer counts in `listBackends`, in ms. Default the engine's (9_000). */
    missedAfterMs?: number;
  } | null;
  logger: EngineLogger;
}

export interface ComposedBackends {
  /** What `backends.*` manages; also this process's stored-change follower. */
  directory: BackendDirectory;
  /** Stops following stored changes. Idempotent. */
  close(): Promise<void>;
}

/**
 * The backends of this process as the API manages them. In distributed mode it first applies
 * what was stored (registrations through the API survive a restart; drains and removals reach a
 * worker that starts later), then follows changes on the bus and on an interval.
 */
export async function composeBackends(options: ComposeBackendsOptions): Promise<ComposedBackends> {
  const { shared, logger } = options;
  if (!shared) {
    return { directory: new BackendDirectory({ registry: options.registry, logger }), close: async () => {} };
  }
  const directory = new BackendDirectory({
    registry: options.registry,
    store: shared.store,
    ...(shared.bus && { bus: shared.bus }),
    ...(shared.workers && { workers: shared.workers }),
    selfWorkerId: shared.selfWorkerId ?? null,
    ...(shared.missedAfterMs !== undefined && { missedAfterMs: shared.missedAfterMs }),
    logger,
  });
  const applied = await directory.sync().catch((error: unknown) => {
    logger.warn({ err: error }, "reading the stored backends failed; following changes from now on");
    return 0;
  });
  if (applied > 0) logger.info({ applied }, "stored backend changes applied");
  const stopSync = await directory.startSync(shared.syncIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS);
  let closing: Promise<void> | null = null;
  return {
    directory,
    close() {
      closing ??= stopSync();
      return closing;
    },
  };
}
