import { requestFailure } from "@raas/shared";
import type { ControlPlaneContext } from "../context";

/**
 * Ownership of what trainers create. A job, a group, a batch (a step is the batch of its jobs) and
 * a run belong to the token that created them (`ownerId`, the token's fingerprint); a policy to the
 * trainer token that claimed it. Writes to another token's work (cancel, add jobs to its group or
 * batch, change its policy) need that token or admin; reads of it need the same when the deployment
 * requires tokens for reads (`requireViewerToken`), where the viewer token also reads everything.
 * Unowned work (`ownerId` null: created before owners were recorded, or without a token) is
 * anyone's with the role the procedure asks for.
 */

/** The first owner among `owners` that is neither null nor the request's token, or null. */
function foreignOwner(ctx: ControlPlaneContext, owners: ReadonlyArray<string | null>): string | null {
  const self = ctx.principal.tokenId;
  return owners.find((owner) => owner !== null && owner !== self) ?? null;
}

/**
 * Throws FORBIDDEN unless the request may change work owned by `owners` (every owner of a group or
 * batch): an admin token, or the owners' own token. `what` names the work (`job job_…`, `batch b-7`).
 */
export function requireOwnerOrAdmin(
  ctx: ControlPlaneContext,
  owners: ReadonlyArray<string | null>,
  what: string,
): void {
  if (ctx.principal.role === "admin") return;
  const owner = foreignOwner(ctx, owners);
  if (owner === null) return;
  throw requestFailure(
    "FORBIDDEN",
    `${what} belongs to another trainer's token (${owner}); send the token that created it, or an admin token`,
    { details: { ownerId: owner } },
  );
}

/**
 * Throws FORBIDDEN when the deployment requires tokens for reads (`requireViewerToken`) and a
 * trainer token asks for work owned by another token: exports, trajectories and gateway traces are
 * training data of one tenant. Admin and viewer tokens read everything; with reads open (the
 * default) everyone does.
 */
export function requireReader(
  ctx: ControlPlaneContext,
  owners: ReadonlyArray<string | null>,
  what: string,
): void {
  if (!ctx.requireViewerToken) return;
  const { role } = ctx.principal;
  if (role === "admin" || role === "viewer") return;
  const owner = foreignOwner(ctx, owners);
  if (owner === null) return;
  throw requestFailure(
    "FORBIDDEN",
    `${what} belongs to another trainer's token (${owner}); this server requires tokens for reads, so read it with the token that created it, a viewer token or an admin token`,
    { details: { ownerId: owner } },
  );
}
