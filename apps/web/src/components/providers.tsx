"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { shouldRetry } from "../lib/should-retry";
import { readToken } from "../token/token-store";
import { createRaasClient } from "../trpc/create-trpc-client";
import { TRPCProvider } from "../trpc/trpc-context";

/** React Query + tRPC for every page. One client per browser tab. */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: 1_000, retry: shouldRetry, refetchOnWindowFocus: true },
        },
      }),
  );
  const [trpcClient] = useState(() => createRaasClient(readToken));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
