"use client";

import { BandLineChart } from "@raas/ui/band-line-chart";
import { StackedBarChart } from "@raas/ui/stacked-bar-chart";
import { overlayCurves, RUN_CURVES, type TRunSteps } from "../../lib/charts/run-curves";
import { type TWasteUnit, WASTE_CATEGORIES, wasteRows } from "../../lib/charts/run-waste";
import { formatNumber, formatPercent } from "../../lib/format";
import styles from "./runs.module.css";

const percent = (value: number) => formatPercent(value);

/** The per-step curves of one or more runs (overlaid), all from the steps' stored statistics. */
export function RunCharts({ runs, wasteUnit }: { runs: readonly TRunSteps[]; wasteUnit: TWasteUnit }) {
  const stepCount = runs.reduce((sum, run) => sum + run.steps.length, 0);
  const names = runs.map((run) => run.run.name).join(", ");
  const reward = overlayCurves(runs, RUN_CURVES.reward);
  const solved = overlayCurves(runs, RUN_CURVES.solved);
  const informative = overlayCurves(runs, RUN_CURVES.informative);
  const tokens = overlayCurves(runs, RUN_CURVES.tokens);
  const failures = overlayCurves(runs, RUN_CURVES.failures);
  const about = `${stepCount} steps of ${names}`;
  return (
    <div className={styles.charts} data-testid="run-charts">
      <ChartBox title="Reward per step (mean, shaded min–max)">
        <BandLineChart
          data={reward.rows}
          xKey="step"
          xLabel="step"
          series={reward.series}
          summary={`Mean reward of handed-out trajectories with its min–max band, ${about}.`}
          testId="chart-reward"
        />
      </ChartBox>
      <ChartBox title="Solved fraction (reward > 0)">
        <BandLineChart
          data={solved.rows}
          xKey="step"
          series={solved.series}
          yDomain={[0, 1]}
          formatY={percent}
          summary={`Fraction of finished samples with reward above 0, ${about}.`}
          testId="chart-solved"
        />
      </ChartBox>
      <ChartBox title="Informative groups ÷ decided groups">
        <BandLineChart
          data={informative.rows}
          xKey="step"
          series={informative.series}
          yDomain={[0, 1]}
          formatY={percent}
          summary={`Groups whose rewards differ over groups decided, ${about}.`}
          testId="chart-informative"
        />
      </ChartBox>
      <ChartBox title="Mean trajectory length (generated tokens)">
        <BandLineChart
          data={tokens.rows}
          xKey="step"
          series={tokens.series}
          formatY={(value) => formatNumber(value, 0)}
          summary={`Mean tokens the model generated per handed-out trajectory, ${about}.`}
          testId="chart-tokens"
        />
      </ChartBox>
      <ChartBox title="Failure rates">
        <BandLineChart
          data={failures.rows}
          xKey="step"
          series={failures.series}
          yDomain={[0, 1]}
          formatY={percent}
          summary={`Member jobs failed for infrastructure reasons over jobs submitted, and failed groups over decided groups, ${about}.`}
          testId="chart-failures"
        />
      </ChartBox>
      {runs.map((run) => (
        <ChartBox key={run.run.id} title={`Waste ledger · ${run.run.name} (${wasteUnitLabel(wasteUnit)})`}>
          <StackedBarChart
            data={wasteRows(run.steps, wasteUnit)}
            xKey="step"
            parts={WASTE_CATEGORIES}
            summary={`Work spent per step on trajectories that never reached the trainer, in ${wasteUnitLabel(wasteUnit)}: cancelled redundant jobs, zero-variance groups, stale samples, infrastructure failures, uncertified traces, long shots let go, and samples whose grade was voided because a canary lied (tampered, handed out with reward 0).`}
            testId="chart-waste"
          />
        </ChartBox>
      ))}
    </div>
  );
}

export function wasteUnitLabel(unit: TWasteUnit): string {
  return unit === "tokens" ? "generated tokens" : "rollout-seconds";
}

function ChartBox({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <h3 className={styles.chartTitle}>{title}</h3>
      {children}
    </div>
  );
}
