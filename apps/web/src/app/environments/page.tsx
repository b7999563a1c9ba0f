import { LoadingState } from "@raas/ui/loading-state";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { Suspense } from "react";
import { EnvironmentsView } from "../../components/environments/environments-view";
import { serverPrefetch } from "../../server/server-trpc";

export const metadata: Metadata = { title: "Environments" };
export const dynamic = "force-dynamic";

/** Environments registered with the service, prefetched on the server so the table is there on first paint. */
export default async function EnvironmentsPage() {
  const { queryClient, trpc } = serverPrefetch();
  await queryClient.prefetchQuery(trpc.environments.list.queryOptions());
  return (
    <>
      <h1>Environments</h1>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <Suspense fallback={<LoadingState title="Loading environments…" />}>
          <EnvironmentsView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
