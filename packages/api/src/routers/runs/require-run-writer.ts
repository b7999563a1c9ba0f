import { requestFailure, type TRun } from "@raas/shared";
import { requireReader } from "../../auth/owner-access";
import type { ControlPlaneContext } from "../../context";
import { requireBatches } from "./require-batches";

/**
 * The run, if the request may write to it: an admin token, the token that created the run, or any
 * trainer when the run has no owner (created before owners were recorded). Another trainer's token
 * is a 403 that says whose token is needed; an unknown run is the batch system's 404.
 */
export async function requireRunWriter(ctx: ControlPlaneContext, runId: string): Promise<TRun> {
  const run = await requireBatches(ctx).system.getRun(runId);
  const { principal } = ctx;
  if (principal.role === "admin" || run.ownerId === null || run.ownerId === principal.tokenId) return run;
  throw requestFailure(
    "FORBIDDEN",
    `run ${run.id} belongs to another trainer's token (${run.ownerId}); send the token that created it, or an admin token`,
    { details: { runId: run.id, ownerId: run.ownerId } },
  );
}

/**
 * The run, if the request may read its training data (a step's handed-out trajectories): always,
 * unless the server requires tokens for reads and a trainer token asks for another trainer's run.
 */
export async function requireRunReader(ctx: ControlPlaneContext, runId: string): Promise<TRun> {
  const run = await requireBatches(ctx).system.getRun(runId);
  requireReader(ctx, [run.ownerId], `run ${run.id}`);
  return run;
}
