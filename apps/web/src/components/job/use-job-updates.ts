"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useTRPC } from "../../trpc/trpc-context";

/** Streams a running job's updates (SSE) straight into the `jobs.get` cache. */
export function useJobUpdates(id: string, isEnabled: boolean): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useSubscription(
    trpc.jobs.events.subscriptionOptions(
      { jobIds: [id] },
      {
        enabled: isEnabled,
        onData: (event) => {
          queryClient.setQueryData(trpc.jobs.get.queryKey({ id }), event.job);
        },
      },
    ),
  );
}
