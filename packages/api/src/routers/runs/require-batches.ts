import { requestFailure } from "@raas/shared";
import type { ControlPlaneBatches, ControlPlanePolicy } from "../../batches.port";
import type { ControlPlaneContext } from "../../context";

/** The context's batch system, or a 503 that says why there is none. */
export function requireBatches(ctx: ControlPlaneContext): ControlPlaneBatches {
  if (ctx.batches) return ctx.batches;
  throw requestFailure(
    "UNAVAILABLE",
    "this server runs without a batch system, so it has no training runs, steps or datasets; start it with one (apps/server builds one when it runs its pools or is the control plane)",
  );
}

/** The context's policy control, or a 503 that says why there is none. */
export function requirePolicy(ctx: ControlPlaneContext): ControlPlanePolicy {
  if (ctx.policy) return ctx.policy;
  throw requestFailure(
    "UNAVAILABLE",
    "this server runs without a policy control, so it cannot report or change the weight version or pause generation; start it with one (apps/server builds one when it runs its pools or is the control plane)",
  );
}
