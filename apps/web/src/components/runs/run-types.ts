import type { AppRouter } from "@raas/api";
import type { inferRouterOutputs } from "@trpc/server";

type RouterOutputs = inferRouterOutputs<AppRouter>;

/** A training run, a step and a group as the browser receives them. */
export type TRunView = RouterOutputs["runs"]["get"];
export type TStepView = RouterOutputs["steps"]["get"];
export type TGroupView = RouterOutputs["steps"]["groups"]["items"][number];

/** How often run and step pages ask again while something still runs, in ms. */
export const RUNS_REFRESH_MS = 3_000;

/** The page of one run, one step, and the trajectories of a step. */
export function runHref(runId: string): string {
  return `/runs/${encodeURIComponent(runId)}`;
}

export function stepHref(runId: string, stepId: string): string {
  return `${runHref(runId)}/steps/${encodeURIComponent(stepId)}`;
}
