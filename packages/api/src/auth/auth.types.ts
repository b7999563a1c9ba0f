/** Roles, most privileged first. A role may do everything the roles after it may do. */
export const ROLES = ["admin", "trainer", "viewer"] as const;
export type TRole = (typeof ROLES)[number];

/**
 * Bearer tokens of the control plane. A request sends `Authorization: Bearer <token>`; the
 * token's role decides what it may do.
 *
 * - Mutations (submit, cancel) need the trainer or admin token; admin-only procedures
 *   (`system.setConcurrency`, `backends.*`) need the admin token.
 * - What a trainer token creates is its own (jobs, groups, batches, runs and their steps, the
 *   policy it claimed): changing another trainer's (cancel, add jobs, pause or re-version a policy)
 *   is a 403 naming the owner; an admin token may change anything (`auth/owner-access.ts`).
 * - Reads need the viewer (or a stronger) token when `requireViewerToken` is true, else are open;
 *   when true, a trainer token also reads only its own work's training data.
 * - With neither `adminToken` nor `trainerToken` set, every mutation is refused (401): the
 *   library never runs an open, writable server. Apps generate an admin token instead.
 */
export interface ControlPlaneAuthOptions {
  /** Token of the admin role (everything). Default: none. */
  adminToken?: string;
  /** Token of the trainer role (submit, cancel, wait, reads). Default: none. */
  trainerToken?: string;
  /**
   * More trainer tokens, one per experiment or team sharing the service: each is a trainer, and a
   * training run belongs to the token that created it (writes to it need that token or admin).
   * Default: none.
   */
  trainerTokens?: readonly string[];
  /** Token of the viewer role (reads only). Default: none. */
  viewerToken?: string;
  /**
   * When true, read-only procedures need a viewer, trainer or admin token, and a trainer token reads
   * only its own exports, trajectories and gateway traces. Default false.
   */
  requireViewerToken: boolean;
}

/** Who a request is, as far as the bearer token tells. */
export interface Principal {
  /** The token's role; null when no token was sent or it matched no role. */
  role: TRole | null;
  /** `none`: no token sent; `invalid`: a token was sent but matches no role. */
  token: "none" | "valid" | "invalid";
  /**
   * Fingerprint of a valid token (`token:` + 16 hex digits of its SHA-256), never the token
   * itself: what a training run records as its owner. Absent when no valid token was sent.
   */
  tokenId?: string;
}

/** True when `role` is at least as privileged as `needed`. */
export function roleSatisfies(role: TRole, needed: TRole): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(needed);
}
