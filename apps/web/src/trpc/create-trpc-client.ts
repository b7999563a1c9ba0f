import type { AppRouter } from "@raas/api";
import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink } from "@trpc/client";

/** Where the browser sends tRPC calls: this app's proxy route, which forwards to the server. */
const TRPC_PROXY_PATH = "/api/trpc";

/**
 * A tRPC client that sends the current bearer token (read on every call, so entering a token
 * takes effect at once). Subscriptions use SSE, which cannot carry headers, so the token goes in
 * the connection params there.
 */
export function createRaasClient(readToken: () => string | null) {
  const url = typeof window === "undefined" ? `http://localhost${TRPC_PROXY_PATH}` : TRPC_PROXY_PATH;
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({
          url,
          connectionParams: () => {
            const token = readToken();
            return token ? { token } : {};
          },
        }),
        false: httpLink({
          url,
          headers: () => {
            const token = readToken();
            return token ? { authorization: `Bearer ${token}` } : {};
          },
        }),
      }),
    ],
  });
}
