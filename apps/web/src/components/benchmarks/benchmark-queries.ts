import type { AppRouter } from "@raas/api";
import type { TRPCClient } from "@trpc/client";
import type { TBenchmarkResultView, TBenchmarkRunView } from "./benchmark-types";

/** Results per page read while assembling a run (the API's largest page). */
const RESULTS_PAGE = 1_000;

/** The runs list every benchmarks page reads: all stored runs, newest first (filtered in the page). */
export const RUN_LIST_INPUT = { limit: 1_000 } as const;

export interface TRunWithResults {
  run: TBenchmarkRunView;
  results: TBenchmarkResultView[];
}

/**
 * One run with every stored result (all pages), for the comparison. Used with the server's client
 * to prefetch and with the browser's (`useTRPCClient()`) to read; the key is the same, so the
 * browser starts from what the server fetched.
 */
export function runWithResultsQuery(client: TRPCClient<AppRouter>, runId: string) {
  return {
    queryKey: ["benchmarks", "run-with-results", runId] as const,
    queryFn: async (): Promise<TRunWithResults> => {
      const { run } = await client.benchmarks.get.query({ runId });
      const results: TBenchmarkResultView[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.benchmarks.results.query({
          runId,
          limit: RESULTS_PAGE,
          ...(cursor !== undefined && { cursor }),
        });
        results.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      return { run, results };
    },
    staleTime: 30_000,
  };
}
