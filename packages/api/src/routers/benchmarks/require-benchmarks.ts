import { requestFailure } from "@raas/shared";
import type { BenchmarkRunRecord, BenchmarkRunStore } from "../../benchmarks.port";
import type { ControlPlaneContext } from "../../context";

/** The context's benchmark-run store, or a 503 that says why there is none. */
export function requireBenchmarks(ctx: ControlPlaneContext): BenchmarkRunStore {
  if (ctx.benchmarks) return ctx.benchmarks;
  throw requestFailure(
    "UNAVAILABLE",
    "this server runs without a benchmark store, so it cannot store or list benchmark runs; start it with one (apps/server always builds one)",
  );
}

/** The run with this id, or a 404 that names it. */
export async function requireRun(store: BenchmarkRunStore, runId: string): Promise<BenchmarkRunRecord> {
  const run = await store.getRun(runId);
  if (run) return run;
  throw requestFailure(
    "NOT_FOUND",
    `no benchmark run with id "${runId}"; create it with benchmarks.createRun (POST /api/v1/benchmarks) first`,
  );
}
