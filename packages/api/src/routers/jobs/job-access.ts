import type { TJob, TSubmitJobRequest } from "@raas/shared";
import { requireOwnerOrAdmin, requireReader } from "../../auth/owner-access";
import type { ControlPlaneContext } from "../../context";

/** A group or a batch of jobs, as `jobs.cancel` and `jobs.exportBatch` name them. */
export type JobSet = { groupId: string } | { batchId: string };

function describeSet(set: JobSet): string {
  return "groupId" in set ? `group ${set.groupId}` : `batch ${set.batchId}`;
}

/** The job (404 when unknown) if the request may change it: its owner's token or admin. */
export async function requireJobWriter(ctx: ControlPlaneContext, jobId: string): Promise<TJob> {
  const job = await ctx.engine.getJob(jobId);
  requireOwnerOrAdmin(ctx, [job.ownerId], `job ${job.id}`);
  return job;
}

/** Throws FORBIDDEN unless every job of the group or batch is the request's token's (or admin). */
export async function requireSetWriter(ctx: ControlPlaneContext, set: JobSet): Promise<void> {
  if (ctx.principal.role === "admin") return;
  requireOwnerOrAdmin(ctx, await ctx.engine.jobOwners(set), describeSet(set));
}

/** The job (404 when unknown) if the request may read its training data (see `requireReader`). */
export async function requireJobReader(ctx: ControlPlaneContext, jobId: string): Promise<TJob> {
  const job = await ctx.engine.getJob(jobId);
  requireReader(ctx, [job.ownerId], `job ${job.id}`);
  return job;
}

/** Throws FORBIDDEN when reads need tokens and the group or batch holds another trainer's jobs. */
export async function requireSetReader(ctx: ControlPlaneContext, set: JobSet): Promise<void> {
  if (!ctx.requireViewerToken || ctx.principal.role !== "trainer") return;
  requireReader(ctx, await ctx.engine.jobOwners(set), describeSet(set));
}

/**
 * Throws FORBIDDEN when a submit would add jobs to a group or batch holding another token's jobs
 * (a step's batch included): a tenant's batch export and cancel must stay its own. One lookup per
 * distinct group and batch named, run concurrently (a GRPO batch names a group per task).
 */
export async function requireSubmitTargets(
  ctx: ControlPlaneContext,
  requests: readonly TSubmitJobRequest[],
): Promise<void> {
  if (ctx.principal.role === "admin") return;
  const sets = new Map<string, JobSet>();
  for (const request of requests) {
    if (request.batchId !== undefined) sets.set(`b:${request.batchId}`, { batchId: request.batchId });
    if (request.groupId !== undefined) sets.set(`g:${request.groupId}`, { groupId: request.groupId });
  }
  await Promise.all([...sets.values()].map((set) => requireSetWriter(ctx, set)));
}

/** What the engine records as the owner of the request's new jobs. */
export function submitterOf(ctx: ControlPlaneContext): { ownerId: string | null } {
  return { ownerId: ctx.principal.tokenId ?? null };
}
