import type { EnvironmentBenchmarkResult, SweBenchmarkResult } from "@raas/handlers";
import { TRPCClientError } from "@trpc/client";
import type { RaasClient } from "../client";

/** Results per `benchmarks.recordResults` call (the server takes at most 1000). */
const RESULTS_PER_CALL = 500;

function trpcCode(error: unknown): string | undefined {
  return error instanceof TRPCClientError ? (error.data as { code?: string } | undefined)?.code : undefined;
}

/** An older server without the `benchmarks.*` procedures, or one running without a benchmark store. */
function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false;
  return trpcCode(error) === "UNAVAILABLE" || /No procedure found/i.test(error.message);
}

export interface NewRun {
  id: string;
  model: string;
  dataset: string;
  /** A registered environment the run evaluates on (the server adds its kind and path to the config). */
  environment?: string;
  config: Record<string, unknown>;
}

/**
 * Stores a benchmark run through `benchmarks.*`. When the server cannot store it (no such
 * procedures, or no benchmark store) it says so once and the run is only written to files.
 * Re-using a run id resumes that run when model and dataset match.
 */
export function benchmarkStore(client: RaasClient, log: (message: string) => void) {
  let isStored = true;
  const call = async (work: () => Promise<unknown>) => {
    if (!isStored) return;
    try {
      await work();
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      isStored = false;
      log(
        `the server cannot store benchmark runs (${error instanceof Error ? error.message : error}); the run is only written to files`,
      );
    }
  };
  return {
    get isStored() {
      return isStored;
    },
    createRun: (run: NewRun) =>
      call(async () => {
        try {
          await client.benchmarks.createRun.mutate(run);
        } catch (error) {
          if (trpcCode(error) !== "CONFLICT") throw error;
          const { run: stored } = await client.benchmarks.get.query({ runId: run.id });
          if (stored.model !== run.model || stored.dataset !== run.dataset) {
            throw new Error(
              `run id "${run.id}" is taken by a run of ${stored.model} on ${stored.dataset}; pass another --run-id`,
            );
          }
          log(`resuming stored run ${run.id} (${stored.totalCount} results stored so far)`);
        }
      }),
    recordResults: (runId: string, results: ReadonlyArray<SweBenchmarkResult | EnvironmentBenchmarkResult>) =>
      call(async () => {
        for (let at = 0; at < results.length; at += RESULTS_PER_CALL) {
          await client.benchmarks.recordResults.mutate({
            runId,
            results: results.slice(at, at + RESULTS_PER_CALL),
          });
        }
      }),
    finishRun: (runId: string, status: "completed" | "failed" | "cancelled") =>
      call(() => client.benchmarks.finishRun.mutate({ runId, status })),
  };
}
