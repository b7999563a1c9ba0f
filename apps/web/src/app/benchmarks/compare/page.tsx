import { LoadingState } from "@raas/ui/loading-state";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { Suspense } from "react";
import { runWithResultsQuery } from "../../../components/benchmarks/benchmark-queries";
import { CompareView } from "../../../components/benchmarks/compare-view";
import { parseRunIds } from "../../../lib/charts/benchmark-runs";
import { serverPrefetch } from "../../../server/server-trpc";

export const metadata: Metadata = { title: "Compare benchmark runs" };
export const dynamic = "force-dynamic";

/**
 * A report: every run in `?runs=a,b` with all its results is fetched on the server and handed to
 * the browser's cache, so the comparison renders complete on first paint.
 */
export default async function CompareBenchmarksPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const runIds = parseRunIds(params.runs);
  const { queryClient, client } = serverPrefetch();
  await Promise.all(runIds.map((runId) => queryClient.prefetchQuery(runWithResultsQuery(client, runId))));
  return (
    <>
      <h1>Compare benchmark runs</h1>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <Suspense fallback={<LoadingState title="Loading the comparison…" />}>
          <CompareView runIds={runIds} isSplitOnly={params.only === "split"} />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
