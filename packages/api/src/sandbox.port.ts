import type { SandboxLimitsInForce, SandboxRuntime } from "@raas/engine";

export type { SandboxLimitsInForce };

/**
 * The sandbox runtime as the control plane sees it: only what `system.health` reports. Type-only:
 * the API depends on the engine's `SandboxRuntime` port, never on a sandbox adapter.
 */
export type ControlPlaneSandboxes = Pick<SandboxRuntime, "name" | "limitsInForce">;
