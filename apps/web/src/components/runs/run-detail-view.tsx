"use client";

import { Badge } from "@raas/ui/badge";
import { FactList } from "@raas/ui/fact-list";
import { Section } from "@raas/ui/section";
import { StateMessage } from "@raas/ui/state-message";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatTimestamp } from "../../lib/format";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import { RunCharts } from "./run-charts";
import { RunCurriculum } from "./run-curriculum";
import { RUNS_REFRESH_MS } from "./run-types";
import { StepsTable } from "./steps-table";
import { useRunSelection } from "./use-run-selection";
import { WasteUnitSelect } from "./waste-unit-select";

/** One run: what it is, its per-step curves and its steps table. */
export function RunDetailView({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const { wasteUnit, update } = useRunSelection();
  const run = useQuery(
    trpc.runs.get.queryOptions(
      { runId },
      { refetchInterval: (query) => (query.state.data?.status === "finished" ? false : RUNS_REFRESH_MS) },
    ),
  );
  const isActive = run.data?.status !== "finished";
  const steps = useQuery(
    trpc.runs.steps.queryOptions({ runId }, { refetchInterval: isActive ? RUNS_REFRESH_MS : false }),
  );

  if (run.isPending) return <StateMessage kind="loading" title={`Loading run ${runId}…`} />;
  if (!run.data) {
    return (
      <>
        <ErrorState what={`run ${runId}`} error={run.error} />
        <p>
          <Link href="/runs">← All training runs</Link>
        </p>
      </>
    );
  }
  const data = run.data;
  const items = steps.data?.items ?? [];

  return (
    <div data-testid="run-detail">
      <p>
        <Link href="/runs">← All training runs</Link> ·{" "}
        <Link href={`/trajectories?runId=${encodeURIComponent(data.id)}`}>Trajectories of this run</Link>
      </p>
      <h1 data-testid="run-name">{data.name}</h1>
      <FactList
        facts={[
          { label: "Id", value: <span className="mono">{data.id}</span>, testId: "run-id" },
          {
            label: "Status",
            value: <Badge tone={data.status === "active" ? "info" : "muted"}>{data.status}</Badge>,
          },
          { label: "Model", value: data.model ?? "—" },
          { label: "Dataset", value: data.dataset ?? "—" },
          { label: "Steps", value: data.stepCount, testId: "run-step-count" },
          { label: "Created", value: formatTimestamp(data.createdAtMs) },
        ]}
      />
      <Section
        id="steps"
        title="Steps"
        description="Each step's stored counters; open a step for its groups."
      >
        {steps.isPending ? <StateMessage kind="loading" title="Loading steps…" /> : null}
        {steps.error ? <ErrorState what="the run's steps" error={steps.error} /> : null}
        {steps.data && items.length === 0 ? (
          <StateMessage kind="empty" title="This run has no steps yet.">
            <p>
              The trainer creates steps with <code>POST /api/v1/steps</code> (or <code>create_step</code> in
              the Python client); each appears here with its statistics while it runs.
            </p>
          </StateMessage>
        ) : null}
        {items.length > 0 ? <StepsTable steps={items} /> : null}
      </Section>
      {items.length > 0 ? (
        <Section
          id="curves"
          title="Per-step curves"
          actions={<WasteUnitSelect unit={wasteUnit} onChange={(unit) => update({ wasteUnit: unit })} />}
        >
          <RunCharts runs={[{ run: { id: data.id, name: data.name }, steps: items }]} wasteUnit={wasteUnit} />
        </Section>
      ) : null}
      <RunCurriculum runId={data.id} isActive={isActive} />
      {data.config ? (
        <Section id="config" title="Trainer configuration">
          <pre className="json">{JSON.stringify(data.config, null, 2)}</pre>
        </Section>
      ) : null}
    </div>
  );
}
