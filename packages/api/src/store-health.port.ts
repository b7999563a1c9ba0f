import type { StoreHealth } from "@raas/engine";

/**
 * What the control plane reads of its process's store health: `state` for `/health` and
 * `/metrics`; `isAvailable` and `isConnectionError` to tell a request that failed because the
 * store is unreachable (answered 503, see `errors/store-unavailable.ts`) from a bug (500).
 */
export type ControlPlaneStoreHealth = Pick<StoreHealth, "state" | "isAvailable" | "isConnectionError">;
