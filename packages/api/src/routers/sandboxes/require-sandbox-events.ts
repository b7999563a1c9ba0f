import type { SandboxEventStore } from "@raas/engine";
import { requestFailure } from "@raas/shared";
import type { ControlPlaneContext } from "../../context";

/** The context's sandbox event store, or a 503 that says why there is none. */
export function requireSandboxEvents(ctx: ControlPlaneContext): SandboxEventStore {
  const events = ctx.sandboxes?.events;
  if (events) return events;
  throw requestFailure(
    "UNAVAILABLE",
    "this server does not record sandbox events (it was started without a sandbox event store; apps/server always builds one)",
  );
}
