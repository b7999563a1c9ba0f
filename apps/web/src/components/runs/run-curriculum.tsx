"use client";

import { Section } from "@raas/ui/section";
import { StackedBarChart } from "@raas/ui/stacked-bar-chart";
import { useQuery } from "@tanstack/react-query";
import {
  CURRICULUM_TASK_PARTS,
  curriculumTaskRows,
  passRateParts,
  passRateRows,
} from "../../lib/charts/run-curriculum";
import { formatPercent } from "../../lib/format";
import { useTRPC } from "../../trpc/trpc-context";
import { RUNS_REFRESH_MS } from "./run-types";
import styles from "./runs.module.css";

/** The run's curriculum (per-task pass rates at each step's close); nothing before a step closed. */
export function RunCurriculum({ runId, isActive }: { runId: string; isActive: boolean }) {
  const trpc = useTRPC();
  const curriculum = useQuery(
    trpc.runs.curriculum.queryOptions({ runId }, { refetchInterval: isActive ? RUNS_REFRESH_MS : false }),
  );
  const data = curriculum.data;
  if (!data || data.snapshots.length === 0) return null;
  const current = data.current;
  const policy = data.sampling?.policy ?? "uniform";
  return (
    <Section
      id="curriculum"
      title="Curriculum"
      description={`Task sampling ${policy}; pass rates over each task's last ${data.windowSize} attempts${
        current
          ? ` — now ${current.active} active, ${current.retired} retired, ${current.unexplored} not tried of ${current.total}${
              current.meanPassRate === null ? "" : `, mean pass rate ${formatPercent(current.meanPassRate)}`
            }`
          : ""
      }.`}
    >
      <div className={styles.charts} data-testid="run-curriculum">
        <div>
          <h3 className={styles.chartTitle}>Tasks per step</h3>
          <StackedBarChart
            data={curriculumTaskRows(data.snapshots)}
            xKey="step"
            parts={CURRICULUM_TASK_PARTS}
            isCount
            summary="Tasks of the step's source when it closed: active, retired (solved N times in a row) and not tried yet."
            testId="chart-curriculum-tasks"
          />
        </div>
        <div>
          <h3 className={styles.chartTitle}>Pass-rate histogram per step</h3>
          <StackedBarChart
            data={passRateRows(data.snapshots)}
            xKey="step"
            parts={passRateParts(data.binEdges)}
            isCount
            summary="Tried tasks per pass-rate bin when each step closed; the learnable band is the middle bins."
            testId="chart-curriculum-pass-rates"
          />
        </div>
      </div>
    </Section>
  );
}
