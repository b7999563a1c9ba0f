import { DataTable, type TDataColumn } from "@raas/ui/data-table";
import Link from "next/link";
import { informativeFraction } from "../../lib/charts/run-curves";
import { totalWaste } from "../../lib/charts/run-waste";
import { formatNumber, formatPercent } from "../../lib/format";
import { stepHref, type TStepView } from "./run-types";
import { StepStatusBadge } from "./step-status-badge";

/** Seconds of rollout work, to 0.1 s. */
function seconds(value: number): string {
  return `${formatNumber(value, 1)} s`;
}

/** Rollout-seconds of the whole waste ledger of a step. */
function wastedSeconds(step: TStepView): number {
  return totalWaste([step], "seconds");
}

const cell = (name: string) => (step: TStepView) => `step-${step.index}-${name}`;

/** Which step it is and how it was asked for. */
const STEP_COLUMNS: TDataColumn<TStepView>[] = [
  {
    key: "index",
    header: "Step",
    cell: (step) => (
      <Link href={stepHref(step.runId, step.id)} data-testid={`step-link-${step.index}`}>
        step {step.index}
      </Link>
    ),
  },
  { key: "status", header: "Status", cell: (step) => <StepStatusBadge status={step.status} /> },
  {
    key: "shape",
    header: "Groups × size",
    cell: (step) => `${step.groups} × ${step.groupSize}`,
  },
  { key: "policy", header: "Policy", cell: (step) => step.policy },
];

/** What became of its groups and trajectories. */
const STATS_COLUMNS: TDataColumn<TStepView>[] = [
  {
    key: "decided",
    header: "Decided (inf. / uninf. / failed)",
    isNumeric: true,
    cell: (step) =>
      `${step.stats.groupsDecided} (${step.stats.informative} / ${step.stats.uninformative} / ${step.stats.failedGroups})`,
    cellTestId: cell("decided"),
  },
  {
    key: "delivered",
    header: "Handed out",
    isNumeric: true,
    cell: (step) => step.stats.groupsDelivered,
    cellTestId: cell("delivered"),
  },
  {
    key: "reward",
    header: "Reward mean ± std",
    isNumeric: true,
    cell: (step) =>
      step.stats.rewardMean === null
        ? "—"
        : `${formatNumber(step.stats.rewardMean, 3)} ± ${formatNumber(step.stats.rewardStd, 3)}`,
    cellTestId: cell("reward"),
  },
  {
    key: "range",
    header: "Min – max",
    isNumeric: true,
    cell: (step) =>
      step.stats.rewardMin === null
        ? "—"
        : `${formatNumber(step.stats.rewardMin, 3)} – ${formatNumber(step.stats.rewardMax, 3)}`,
  },
  {
    key: "solved",
    header: "Solved",
    isNumeric: true,
    cell: (step) => formatPercent(step.stats.solvedFraction),
    cellTestId: cell("solved"),
  },
  {
    key: "informative",
    header: "Informative ÷ decided",
    isNumeric: true,
    cell: (step) => formatPercent(informativeFraction(step.stats)),
    cellTestId: cell("informative"),
  },
  {
    key: "tokens",
    header: "Mean tokens",
    isNumeric: true,
    cell: (step) => formatNumber(step.stats.meanTrajectoryTokens, 1),
    cellTestId: cell("tokens"),
  },
  {
    key: "jobs",
    header: "Jobs (cancelled)",
    isNumeric: true,
    cell: (step) => `${step.stats.jobsSubmitted} (${step.stats.jobsCancelled})`,
    cellTestId: cell("jobs"),
  },
  {
    key: "carried",
    header: "Carried in / over",
    isNumeric: true,
    cell: (step) => `${step.stats.trajectoriesCarriedIn} / ${step.stats.trajectoriesCarriedOver}`,
  },
  {
    key: "waste",
    header: "Waste",
    isNumeric: true,
    cell: (step) => seconds(wastedSeconds(step)),
  },
];

/** A run's steps, oldest first, with their counters and reward statistics; each links to its groups. */
export function StepsTable({ steps }: { steps: readonly TStepView[] }) {
  return (
    <DataTable
      caption="Steps of the run"
      testId="steps-table"
      rows={steps}
      rowKey={(step) => step.id}
      rowTestId={(step) => `step-row-${step.index}`}
      columns={[...STEP_COLUMNS, ...STATS_COLUMNS]}
    />
  );
}
