import { Badge, type TBadgeTone } from "@raas/ui/badge";
import { formatReward, runEnvironment } from "../../lib/charts/benchmark-environment";
import { modelSize, resolvedFraction } from "../../lib/charts/benchmark-runs";
import { formatPercent } from "../../lib/format";
import type { TBenchmarkRunView } from "./benchmark-types";
import styles from "./benchmarks.module.css";

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
function datasetLabel(run: TBenchmarkRunView): string {
  return run.split ? `${run.dataset} (${run.split})` : run.dataset;
}

/** `0.667`: the mean reward over the results that have one; an em dash for SWE-bench runs. */
export function meanRewardText(run: TBenchmarkRunView): string {
  return formatReward(run.meanReward);
}

/** The dataset; for an environment run, its environment's name and kind as well. */
export function DatasetCell({ run }: { run: TBenchmarkRunView }) {
  const environment = runEnvironment(run);
  if (environment === null) return <>{datasetLabel(run)}</>;
  // The badge on a line of its own: the dataset column stays as narrow as its name.
  return (
    <>
      {datasetLabel(run)}
      <span className={styles.environment}>
        <Badge tone="muted" testId={`run-env-${run.id}`} title={`environment ${environment.name}`}>
          {environment.name === run.dataset
            ? `${environment.kind} environment`
            : `${environment.kind} environment ${environment.name}`}
        </Badge>
      </span>
    </>
  );
}
