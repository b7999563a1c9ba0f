import { DEFAULT_POLICY_ID } from "@raas/shared";
import type { EngineLogger } from "../engine.types";
import type {
  BackendRegistrationStore,
  StoredBackend,
  StoredBackendRecord,
  TStoredBackendState,
} from "../ports/backend-registration-store.port";
import { type Clock, systemClock } from "../ports/clock.port";
import { BUS_CHANNELS, type EventBus } from "../ports/event-bus.port";
import type {
  BackendRegistration,
  BackendView,
  InferenceBackendRegistry,
} from "../ports/inference-pool.port";
import type { WorkerStore } from "../ports/worker-store.port";
import { DEFAULT_MISSED_AFTER_MS } from "../workers/worker-defaults";
import { liveBackendReports, type MergedBackendView, mergeBackendViews } from "./merge-backend-views";

type MaybePromise<T> = T | Promise<T>;

/**
 * The backend management the control plane offers (`backends.*`): an inference pool's own
 * `InferenceBackendRegistry` (the embedded default) or a `BackendDirectory` that also keeps the
 * changes and merges the workers' views (distributed mode).
 */
export interface BackendManager {
  registerBackend(input: BackendRegistration): MaybePromise<{ backend: BackendView; isCreated: boolean }>;
  listBackends(): MaybePromise<Array<BackendView & { workers?: MergedBackendView["workers"] }>>;
  drainBackend(backendId: string): MaybePromise<BackendView>;
  resumeBackend(backendId: string): MaybePromise<BackendView>;
  removeBackend(backendId: string): MaybePromise<BackendView>;
  setWeightVersion(backendId: string, weightVersion: string | null): MaybePromise<BackendView>;
}

export interface BackendDirectoryOptions {
  /** This process's inference pool: every change applies to it first. */
  registry: InferenceBackendRegistry;
  /** Where changes are kept and read back from (`sync`). Default none: changes stay in this process. */
  store?: BackendRegistrationStore;
  /** Whose heartbeats carry the other processes' backend views. Default none: `listBackends` is this process's. */
  workers?: WorkerStore;
  /** This process's own worker id: its stored report is left out (its view is the registry's). */
  selfWorkerId?: string | null;
  /** A worker silent this long no longer counts, in ms. Default `DEFAULT_MISSED_AFTER_MS` (9_000). */
  missedAfterMs?: number;
  /** Where a change is announced (`BUS_CHANNELS.backends`) and heard. Default none: `sync` on the interval only. */
  bus?: EventBus;
  clock?: Clock;
  logger?: EngineLogger;
}

/**
 * The deployment's backends as the API manages them. A change (register, drain, resume, weight
 * version, remove) applies to this process's pool, is saved (`removed` as a tombstone) and
 * announced; `sync` applies saved changes this process has not seen — at start, then on an
 * interval and on each announcement — so every worker routes as the admin asked and a restarted
 * server gets back what was registered through the API. `listBackends` merges this process's
 * view with the live workers' heartbeat reports (`mergeBackendViews`).
 */
export class BackendDirectory implements BackendManager {
  readonly #options: BackendDirectoryOptions;
  readonly #registry: InferenceBackendRegistry;
  readonly #clock: Clock;
  /** Revision and spec of each stored backend as last applied here. */
  readonly #applied = new Map<string, { revision: number; spec: string }>();
  readonly #removedIds = new Set<string>();
  #syncing: Promise<number> | null = null;

  constructor(options: BackendDirectoryOptions) {
    this.#options = options;
    this.#registry = options.registry;
    this.#clock = options.clock ?? systemClock;
  }

  async registerBackend(input: BackendRegistration): Promise<{ backend: BackendView; isCreated: boolean }> {
    const result = this.#registry.registerBackend(input);
    this.#removedIds.delete(input.id);
    await this.#save(result.backend, stateOf(result.backend));
    return result;
  }

  async drainBackend(backendId: string): Promise<BackendView> {
    const backend = this.#registry.drainBackend(backendId);
    await this.#save(backend, "draining");
    return backend;
  }

  async resumeBackend(backendId: string): Promise<BackendView> {
    const backend = this.#registry.resumeBackend(backendId);
    await this.#save(backend, "active");
    return backend;
  }

  async setWeightVersion(backendId: string, weightVersion: string | null): Promise<BackendView> {
    const backend = this.#registry.setWeightVersion(backendId, weightVersion);
    await this.#save(backend, stateOf(backend));
    return backend;
  }

  async removeBackend(backendId: string): Promise<BackendView> {
    const backend = this.#registry.removeBackend(backendId);
    this.#removedIds.add(backendId);
    await this.#save(backend, "removed");
    return backend;
  }

  /** This process's backends merged with the live workers' reports. */
  async listBackends(): Promise<MergedBackendView[]> {
    const own = this.#registry.listBackends();
    const { workers } = this.#options;
    if (!workers) return own.map((backend) => ({ ...backend, workers: [] }));
    const reports = liveBackendReports(await workers.list(), {
      nowMs: this.#clock.now(),
      missedAfterMs: this.#options.missedAfterMs ?? DEFAULT_MISSED_AFTER_MS,
      excludeWorkerId: this.#options.selfWorkerId ?? null,
    });
    return mergeBackendViews(own, reports, { removedIds: this.#removedIds });
  }

  /**
   * Applies the stored backends this process has not seen at their current revision (or joins the
   * sync in flight); resolves to how many it applied. Throws when the store fails.
   */
  sync(): Promise<number> {
    this.#syncing ??= this.#syncOnce().finally(() => {
      this.#syncing = null;
    });
    return this.#syncing;
  }

  /**
   * Syncs every `intervalMs` and whenever a change is announced on the bus; the returned function
   * stops both. A failed sync is logged and retried at the next tick.
   */
  async startSync(intervalMs: number): Promise<() => Promise<void>> {
    let isStopped = false;
    let cancelTimer: (() => void) | null = null;
    const run = () =>
      this.sync().catch((error: unknown) =>
        this.#options.logger?.warn({ err: error }, "reading the stored backends failed; trying again"),
      );
    const schedule = () => {
      if (isStopped) return;
      cancelTimer = this.#clock.setTimer(() => {
        void run().finally(schedule);
      }, intervalMs);
    };
    const unsubscribe = await this.#options.bus?.subscribe(BUS_CHANNELS.backends, () => void run());
    schedule();
    return async () => {
      isStopped = true;
      cancelTimer?.();
      await unsubscribe?.();
      await this.#syncing?.catch(() => undefined);
    };
  }

  async #syncOnce(): Promise<number> {
    const { store } = this.#options;
    if (!store) return 0;
    let applied = 0;
    for (const record of await store.list()) {
      if (this.#applied.get(record.id)?.revision === record.revision) continue;
      try {
        this.#apply(record);
        applied += 1;
      } catch (error) {
        this.#options.logger?.warn({ backendId: record.id, err: error }, "a stored backend change failed");
      }
      this.#applied.set(record.id, { revision: record.revision, spec: specKey(record) });
    }
    return applied;
  }

  #apply(record: StoredBackendRecord): void {
    const known = this.#registry.listBackends().find((backend) => backend.id === record.id);
    const logger = this.#options.logger;
    if (record.state === "removed") {
      this.#removedIds.add(record.id);
      if (known) {
        this.#registry.removeBackend(record.id);
        logger?.info({ backendId: record.id }, "backend removed (stored change)");
      }
      return;
    }
    this.#removedIds.delete(record.id);
    // Only a changed spec re-registers: a drain alone must not reset a weight version set since.
    if (!known || this.#applied.get(record.id)?.spec !== specKey(record)) {
      this.#registry.registerBackend({
        id: record.id,
        kind: record.kind,
        baseUrl: record.baseUrl,
        modelName: record.modelName,
        weightVersion: record.weightVersion,
        ...(record.maxConcurrency !== null && { maxConcurrency: record.maxConcurrency }),
        ...(record.policyId !== undefined && { policyId: record.policyId }),
      });
      logger?.info(
        { backendId: record.id, baseUrl: record.baseUrl, revision: record.revision },
        known ? "backend updated (stored change)" : "backend registered (stored change)",
      );
    }
    const lifecycle = this.#registry.listBackends().find((backend) => backend.id === record.id)?.lifecycle;
    if (record.state === "draining" && lifecycle === "active") {
      this.#registry.drainBackend(record.id);
      logger?.info({ backendId: record.id }, "backend draining (stored change)");
    } else if (record.state === "active" && lifecycle !== undefined && lifecycle !== "active") {
      this.#registry.resumeBackend(record.id);
      logger?.info({ backendId: record.id }, "backend resumed (stored change)");
    }
  }

  async #save(backend: BackendView, state: TStoredBackendState): Promise<void> {
    const { store, bus } = this.#options;
    if (!store) return;
    const stored: StoredBackend = {
      id: backend.id,
      kind: backend.kind,
      baseUrl: backend.baseUrl,
      modelName: backend.modelName,
      weightVersion: backend.weightVersion,
      maxConcurrency: backend.maxConcurrency,
      policyId: backend.policyId,
      state,
    };
    const record = await store.save(stored, this.#clock.now());
    this.#applied.set(record.id, { revision: record.revision, spec: specKey(record) });
    await bus
      ?.publish(BUS_CHANNELS.backends, JSON.stringify({ id: record.id, revision: record.revision }))
      .catch((error: unknown) =>
        this.#options.logger?.warn({ backendId: record.id, err: error }, "backend change not announced"),
      );
  }
}

function stateOf(backend: BackendView): TStoredBackendState {
  return backend.lifecycle === "active" ? "active" : "draining";
}

/** The registration fields of a stored backend (what `registerBackend` sets), as one comparable string. */
function specKey(backend: StoredBackend): string {
  const { kind, baseUrl, modelName, weightVersion, maxConcurrency } = backend;
  const policyId = backend.policyId ?? DEFAULT_POLICY_ID;
  return JSON.stringify([kind, baseUrl, modelName, weightVersion, maxConcurrency, policyId]);
}
