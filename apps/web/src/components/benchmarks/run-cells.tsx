import { Badge, type TBadgeTone } from "@raas/ui/badge";
import { modelSize, resolvedFraction } from "../../lib/charts/benchmark-runs";
import { formatPercent } from "../../lib/format";
import type { TBenchmarkRunView } from "./benchmark-types";

const STATUS_TONES: Record<string, TBadgeTone> = {
  running: "info",
  completed: "ok",
  failed: "bad",
  cancelled: "muted",
};

export function RunStatus({ run }: { run: TBenchmarkRunView }) {
  return <Badge tone={STATUS_TONES[run.status] ?? "muted"}>{run.status}</Badge>;
}

/** `8B` from the model's name, or an em dash when the name states no size. */
export function runSize(run: TBenchmarkRunView): string {
  return modelSize(run.model) ?? "—";
}

/** `5 / 11`: resolved over instances with a result. */
export function resolvedCounts(run: TBenchmarkRunView): string {
  return `${run.resolvedCount} / ${run.totalCount}`;
}

/** `45.5 %`; an em dash before any result is stored. */
export function resolvedPercent(run: TBenchmarkRunView): string {
  return formatPercent(resolvedFraction(run));
}

/** The dataset with its split, e.g. `swe-bench-verified (test)`. */
export function datasetLabel(run: TBenchmarkRunView): string {
  return run.split ? `${run.dataset} (${run.split})` : run.dataset;
}
