import type { BackendRegistration, BackendView, InferenceBackendRegistry } from "@raas/engine";

export type { BackendRegistration, BackendView, InferenceBackendRegistry };

/**
 * The inference backends the control plane manages (the `backends.*` procedures). Type-only: the
 * API depends on the engine's `InferenceBackendRegistry` port, never on an inference adapter;
 * the app hands in its pool (e.g. `RoutedInferencePool`).
 */
export interface ControlPlaneBackends {
  registry: InferenceBackendRegistry;
  /** Model name of registrations that name none, e.g. `Qwen/Qwen3-8B`. Default none: then required. */
  defaultModelName?: string;
}
