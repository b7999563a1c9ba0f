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
 * Finds out, without changing anything, whether the token is the admin token.
 *
 * The API has no "who am I" procedure yet, so this calls the admin-only `system.setConcurrency`
 * with an input that always fails validation (`concurrency: -1`). Role checks run before input
 * validation: an admin token gets VALIDATION_FAILED, any other token UNAUTHORIZED or FORBIDDEN,
 * and no pool is ever resized. Replace with `auth.whoami` once the API offers it.
 */
export async function probeTokenAccess(client: TRPCClient<AppRouter>): Promise<TTokenAccess> {
  try {
    await client.system.setConcurrency.mutate({ stage: "init", concurrency: -1 });
    return { kind: "unknown", reason: "the server accepted a probe it should have rejected" };
  } catch (error) {
    if (!isTRPCClientError(error)) return { kind: "unknown", reason: String(error) };
    const code = (error.data as { code?: string } | undefined)?.code;
    switch (code) {
      case "VALIDATION_FAILED":
      case "BAD_REQUEST":
        return { kind: "admin" };
      case "FORBIDDEN":
        return { kind: "not-admin", reason: error.message };
      case "UNAUTHORIZED":
        return { kind: "invalid", reason: error.message };
      default:
        return { kind: "unknown", reason: error.message };
    }
  }
}
