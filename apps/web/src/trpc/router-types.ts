import type { AppRouter } from "@raas/api";
import type { inferRouterOutputs } from "@trpc/server";

/** What procedures return as the browser receives them (JSON: `unknown` fields become optional). */
type RouterOutputs = inferRouterOutputs<AppRouter>;

export type TJobView = RouterOutputs["jobs"]["get"];
export type TJobListView = RouterOutputs["jobs"]["list"];
export type TStatsView = RouterOutputs["system"]["stats"];
export type TTurnView = RouterOutputs["jobs"]["trajectory"]["turns"][number];
export type TToolCallView = RouterOutputs["jobs"]["trajectory"]["toolCalls"][number];
type THealthView = RouterOutputs["system"]["health"];
export type TSandboxLimitsView = NonNullable<THealthView["sandboxLimits"]>;
export type TSandboxSummaryView = RouterOutputs["sandboxes"]["summary"];
export type TWorkerView = RouterOutputs["workers"]["list"]["workers"][number];
export type TBackendView = RouterOutputs["backends"]["list"]["backends"][number];
