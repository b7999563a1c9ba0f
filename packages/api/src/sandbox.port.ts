import type { SandboxEventStore, SandboxRuntime } from "@raas/engine";

/**
 * The agent sandboxes as the control plane sees them: the runtime's name and limits (what
 * `system.health` reports) and the store of their lifecycle events (what `sandboxes.*` reads).
 * Type-only: the API depends on the engine's ports, never on a sandbox or database adapter.
 */
export type ControlPlaneSandboxes = Pick<SandboxRuntime, "name" | "limitsInForce"> & {
  /** Stored lifecycle events; without it `sandboxes.*` answer 503. */
  events?: SandboxEventStore;
};
