import { LoadingState } from "@raas/ui/loading-state";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { Suspense } from "react";
import { RUN_LIST_INPUT } from "../../components/benchmarks/benchmark-queries";
import { BenchmarksView } from "../../components/benchmarks/benchmarks-view";
import { serverPrefetch } from "../../server/server-trpc";

export const metadata: Metadata = { title: "Benchmarks" };
export const dynamic = "force-dynamic";

/** Benchmark runs stored via the API (SWE-bench and environments), prefetched on the server so the table is there on first paint. */
export default async function BenchmarksPage() {
  const { queryClient, trpc } = serverPrefetch();
  await queryClient.prefetchQuery(trpc.benchmarks.list.queryOptions(RUN_LIST_INPUT));
  return (
    <>
      <h1>Benchmarks</h1>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <Suspense fallback={<LoadingState title="Loading benchmark runs…" />}>
          <BenchmarksView />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
