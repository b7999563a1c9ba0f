import { requestFailure } from "@raas/shared";
import type { ControlPlaneBackends } from "../../backends.port";
import type { ControlPlaneContext } from "../../context";

/** The context's backend registry, or a 503 that says why there is none. */
export function requireBackends(ctx: ControlPlaneContext): ControlPlaneBackends {
  if (ctx.backends) return ctx.backends;
  throw requestFailure(
    "UNAVAILABLE",
    "this server runs without an inference pool, so it has no backends to list or change; start it with one (apps/server always builds one)",
  );
}
