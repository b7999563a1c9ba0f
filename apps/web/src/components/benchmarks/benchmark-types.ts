import type { AppRouter } from "@raas/api";
import type { inferRouterOutputs } from "@trpc/server";

type RouterOutputs = inferRouterOutputs<AppRouter>;

/** A stored benchmark run as the browser receives it. */
export type TBenchmarkRunView = RouterOutputs["benchmarks"]["get"]["run"];
/** One instance's stored result. */
export type TBenchmarkResultView = RouterOutputs["benchmarks"]["results"]["items"][number];
