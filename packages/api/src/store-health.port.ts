import type { StoreHealth } from "@raas/engine";

/** What the control plane reads of its process's store health (`/health`, `/metrics`). */
export type ControlPlaneStoreHealth = Pick<StoreHealth, "state">;
