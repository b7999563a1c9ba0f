import type { AppRouter } from "@raas/api";
import type { TRPCClient } from "@trpc/client";
import { isTRPCClientError } from "@trpc/client";

/** What the dashboard knows about the token in use. */
export type TTokenAccess =
  | { kind: "none" }
  | { kind: "admin" }
  | { kind: "not-admin"; reason: string }
  | { kind: "invalid"; reason: string }
  | { kind: "unknown"; reason: string };

/**
 * Finds out, without changing anything, what the token in use may do: asks the server's
 * side-effect-free `system.whoami`, which answers with the token's role (or that it is invalid).
 */
export async function probeTokenAccess(client: TRPCClient<AppRouter>): Promise<TTokenAccess> {
  try {
    const { role, token } = await client.system.whoami.query();
    if (token === "invalid") {
      return {
        kind: "invalid",
        reason: "the token matches none of the server's admin, trainer or viewer tokens",
      };
    }
    if (token === "none" || role === null) return { kind: "none" };
    if (role === "admin") return { kind: "admin" };
    return { kind: "not-admin", reason: `it is the ${role} token` };
  } catch (error) {
    return { kind: "unknown", reason: isTRPCClientError(error) ? error.message : String(error) };
  }
}
