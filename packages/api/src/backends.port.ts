import type { BackendManager, InferenceBackendRegistry } from "@raas/engine";

export type { InferenceBackendRegistry };

/**
 * The inference backends the control plane manages (the `backends.*` procedures). Type-only: the
 * API depends on the engine's `BackendManager` port, never on an inference adapter; the app hands
 * in its pool (e.g. `RoutedInferencePool`) or, in distributed mode, the engine's
 * `BackendDirectory` over it (changes kept and shared, the workers' views merged into the list).
 */
export interface ControlPlaneBackends {
  registry: BackendManager;
  /** This process's own pool, for its `/metrics` series (every process exports its own; a scrape sums them). */
  pool: Pick<InferenceBackendRegistry, "listBackends">;
  /** Model name of registrations that name none, e.g. `Qwen/Qwen3-8B`. Default none: then required. */
  defaultModelName?: string;
}
