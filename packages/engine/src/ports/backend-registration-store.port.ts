import type { InferenceBackendKind } from "./inference-pool.port";

/** What an admin last asked of a backend: route to it, drain it, or forget it. */
export type TStoredBackendState = "active" | "draining" | "removed";

/**
 * One backend as registered, drained, resumed or removed through the API: every process of a
 * deployment applies it to its own inference pool. `removed` is kept as a tombstone so that a
 * removal also reaches processes that had the backend from their own configuration.
 */
export interface StoredBackend {
  id: string;
  kind: InferenceBackendKind;
  baseUrl: string;
  modelName: string;
  weightVersion: string | null;
  /** Requests it runs at once; null for the pool's default. */
  maxConcurrency: number | null;
  /** The policy whose weights it serves. Absent in rows stored before policies: the default policy. */
  policyId?: string;
  state: TStoredBackendState;
}

/** A stored backend with the store's revision (bumped on every save) and time of the last save. */
export interface StoredBackendRecord extends StoredBackend {
  /** The policy whose weights it serves (the default policy for rows saved without one). */
  policyId: string;
  /** Increases with every save of this id: a process re-applies a backend whose revision it has not seen. */
  revision: number;
  updatedAtMs: number;
}

/**
 * Where the API's backend changes are kept (beside the job store, the same database), so that
 * they survive a restart and reach every worker (each polls `list()`).
 */
export interface BackendRegistrationStore {
  /** Inserts or replaces the backend's row; returns it with its new revision. */
  save(backend: StoredBackend, atMs: number): Promise<StoredBackendRecord>;
  /** Every stored backend, tombstones included, oldest first. */
  list(): Promise<StoredBackendRecord[]>;
}
