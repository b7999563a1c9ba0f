import type { AppRouter } from "@raas/api";
import type { inferRouterOutputs } from "@trpc/server";

type RouterOutputs = inferRouterOutputs<AppRouter>;

/** One job's training export (flat tokens, loss mask, logprobs, turn spans) as the browser receives it. */
export type TExportView = RouterOutputs["jobs"]["export"];
