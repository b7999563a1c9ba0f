"use client";

import { Section } from "@raas/ui/section";
import { StateMessage } from "@raas/ui/state-message";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import { RunCharts, wasteUnitLabel } from "./run-charts";
import { RunPicker } from "./run-picker";
import { RUNS_REFRESH_MS } from "./run-types";
import styles from "./runs.module.css";
import { useRunSelection } from "./use-run-selection";
import { useRunsSteps } from "./use-runs-steps";
import { WasteUnitSelect } from "./waste-unit-select";

/** Training runs: pick some, see their per-step curves overlaid. Selection and unit live in the URL. */
export function RunsView() {
  const trpc = useTRPC();
  const { runIds, wasteUnit, update } = useRunSelection();
  const runs = useQuery(trpc.runs.list.queryOptions({ limit: 200 }, { refetchInterval: RUNS_REFRESH_MS }));
  const all = runs.data?.items ?? [];
  const picked = all.filter((run) => runIds.includes(run.id));
  // Nothing picked (or only unknown ids): the newest run, so the page never opens on empty charts.
  const shown = picked.length > 0 ? picked : all.slice(0, 1);
  const steps = useRunsSteps(shown);

  if (runs.isPending) return <StateMessage kind="loading" title="Loading training runs…" />;
  if (runs.error) return <ErrorState what="training runs" error={runs.error} />;
  if (all.length === 0) {
    return (
      <div data-testid="runs-view">
        <StateMessage kind="empty" title="No training runs yet.">
          <p>
            A trainer creates a run (<code>POST /api/v1/runs</code>, or <code>RaasClient.create_run</code> in{" "}
            <code>clients/python</code>) and then steps of groups; each step&apos;s statistics appear here as
            it runs. <code>npm start</code> runs a short demo run.
          </p>
        </StateMessage>
      </div>
    );
  }

  const toggle = (runId: string, isSelected: boolean) => {
    const current = shown.map((run) => run.id);
    update({ runIds: isSelected ? [...current, runId] : current.filter((id) => id !== runId) });
  };

  return (
    <div data-testid="runs-view">
      <RunPicker runs={all} selectedIds={shown.map((run) => run.id)} onToggle={toggle} />
      <Section
        id="curves"
        title="Per-step curves"
        description={
          <>
            {picked.length === 0
              ? "Showing the newest run; tick others above to overlay them. "
              : `Overlaying ${picked.length} run${picked.length === 1 ? "" : "s"}. `}
            Every point is one step&apos;s stored statistics (no trajectory is scanned); the waste ledger is
            in {wasteUnitLabel(wasteUnit)}.
          </>
        }
        actions={<WasteUnitSelect unit={wasteUnit} onChange={(unit) => update({ wasteUnit: unit })} />}
      >
        {steps.error ? <ErrorState what="the runs' steps" error={steps.error} /> : null}
        {steps.isPending ? <StateMessage kind="loading" title="Loading steps…" /> : null}
        {!steps.isPending && steps.runsSteps.every((run) => run.steps.length === 0) ? (
          <StateMessage kind="empty" title="The selected runs have no steps yet.">
            <p className={styles.hint}>
              Create a step (<code>POST /api/v1/steps</code>) with a task source, a group size and the number
              of groups wanted; its curves appear as groups are decided.
            </p>
          </StateMessage>
        ) : null}
        {steps.runsSteps.some((run) => run.steps.length > 0) ? (
          <RunCharts runs={steps.runsSteps} wasteUnit={wasteUnit} />
        ) : null}
      </Section>
    </div>
  );
}
