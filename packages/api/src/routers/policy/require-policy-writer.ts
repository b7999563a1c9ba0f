import { requestFailure } from "@raas/shared";
import type { ControlPlanePolicy } from "../../batches.port";
import type { ControlPlaneContext } from "../../context";
import { requirePolicy } from "../runs/require-batches";

/**
 * The policy control, if the request may change the policy's weight version or pause: an admin
 * token, or the trainer token that owns the policy. A policy nobody owns yet (the default one on a
 * fresh service, a new name) becomes the calling trainer token's first, so a second trainer cannot
 * re-version or pause a policy a first one trains. Another trainer's policy is a 403 that says whose
 * token is needed and how to get a policy of one's own.
 */
export async function requirePolicyWriter(
  ctx: ControlPlaneContext,
  policyId: string,
): Promise<ControlPlanePolicy> {
  const policy = requirePolicy(ctx);
  const { principal } = ctx;
  if (principal.role === "admin") return policy;
  let { ownerId } = policy.stateOf(policyId);
  if (ownerId === null && principal.tokenId !== undefined)
    ownerId = (await policy.claim(policyId, principal.tokenId)).ownerId;
  if (ownerId === principal.tokenId) return policy;
  throw requestFailure(
    "FORBIDDEN",
    `policy ${policyId} belongs to another trainer's token (${ownerId}); send that token or an admin token, or train a policy of your own (runs.create with policyId, backends registered under it)`,
    { details: { policyId, ownerId } },
  );
}
