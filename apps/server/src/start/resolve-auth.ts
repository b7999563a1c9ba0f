import { randomBytes } from "node:crypto";
import type { ControlPlaneAuthOptions } from "@raas/api";

/** The given tokens; without an admin or trainer token, a random admin token is generated. */
export function resolveAuth(given: Partial<ControlPlaneAuthOptions> = {}): {
  auth: ControlPlaneAuthOptions;
  isAdminTokenGenerated: boolean;
} {
  const auth: ControlPlaneAuthOptions = { ...given, requireViewerToken: given.requireViewerToken ?? false };
  if (auth.adminToken || auth.trainerToken || (auth.trainerTokens?.length ?? 0) > 0)
    return { auth, isAdminTokenGenerated: false };
  return {
    auth: { ...auth, adminToken: `raas_${randomBytes(24).toString("base64url")}` },
    isAdminTokenGenerated: true,
  };
}
