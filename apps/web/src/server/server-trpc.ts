import type { AppRouter } from "@raas/api";
import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpLink, type TRPCClient } from "@trpc/client";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { webEnv } from "../../env";

/** Longest a server-side prefetch waits for the control plane, in ms. */
const PREFETCH_TIMEOUT_MS = 10_000;

/**
 * A tRPC client for server components: straight to the control plane's `/trpc` (the path the
 * `/api/trpc` proxy forwards to), with no token — what a viewer may read. The browser's token
 * lives in its localStorage, so a server that requires a viewer token answers 401 here and the
 * page's client queries fetch again with the token.
 */
function serverTrpcClient(): TRPCClient<AppRouter> {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: new URL("/trpc", webEnv().RAAS_SERVER_URL).toString(),
        // A hung server must not hold the page: past this the browser fetches on its own.
        fetch: (input, init) =>
          fetch(input, { ...init, cache: "no-store", signal: AbortSignal.timeout(PREFETCH_TIMEOUT_MS) }),
      }),
    ],
  });
}

/**
 * A fresh query client and typed query options over `serverTrpcClient()`, for prefetching a
 * report page on the server: the options' keys equal the browser's (`useTRPC()`), so the
 * dehydrated results fill the browser's cache and the page renders complete on first paint.
 */
export function serverPrefetch() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
  const client = serverTrpcClient();
  const trpc = createTRPCOptionsProxy<AppRouter>({ client, queryClient });
  return { queryClient, client, trpc };
}
