"use client";

import { Section } from "@raas/ui/section";
import { StateMessage } from "@raas/ui/state-message";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { isTerminalStatus } from "../../lib/domain";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import { EvalReport } from "./eval-report";
import { ExportLink } from "./export-link";
import { GatewayCallsPanel } from "./gateway-calls-panel";
import { GatewayCertificatePanel } from "./gateway-certificate-panel";
import { TaskPanel } from "./task-panel";
import { TimingPanel } from "./timing-panel";
import { tokenBlocks } from "./token-blocks";
import styles from "./trajectory.module.css";
import { TrajectoryHeader } from "./trajectory-header";
import { TrajectoryTurns } from "./trajectory-turns";
import { TurnRewardsPanel } from "./turn-rewards-panel";

/** Refresh of a running trajectory, in ms. */
const TRAJECTORY_REFRESH_MS = 2_000;

/** One trajectory: task, turns with the token view, tool calls, timing, evaluation, and its JSONL export. */
export function TrajectoryDetailView({ jobId }: { jobId: string }) {
  const trpc = useTRPC();
  const job = useQuery(
    trpc.jobs.get.queryOptions(
      { id: jobId },
      {
        refetchInterval: (query) =>
          query.state.data && isTerminalStatus(query.state.data.status) ? false : TRAJECTORY_REFRESH_MS,
      },
    ),
  );
  const isRunning = job.data !== undefined && !isTerminalStatus(job.data.status);
  const refetchInterval = isRunning ? TRAJECTORY_REFRESH_MS : false;
  const trajectory = useQuery(trpc.jobs.trajectory.queryOptions({ jobId }, { refetchInterval }));
  const exported = useQuery(trpc.jobs.export.queryOptions({ jobId }, { refetchInterval }));

  if (job.isPending) return <StateMessage kind="loading" title={`Loading trajectory ${jobId}…`} />;
  if (!job.data) {
    return (
      <>
        <ErrorState what={`trajectory ${jobId}`} error={job.error} />
        <p>
          <Link href="/trajectories">← All trajectories</Link>
        </p>
      </>
    );
  }
  const data = job.data;
  const turns = trajectory.data?.turns ?? [];
  const toolCalls = trajectory.data?.toolCalls ?? [];
  const blocks = exported.data ? tokenBlocks(exported.data) : [];

  return (
    <div data-testid="trajectory-detail">
      <p>
        <Link href="/trajectories">← All trajectories</Link>
      </p>
      <h1 className="mono" data-testid="trajectory-id">
        {data.id}
      </h1>
      <div className={styles.actions}>
        <ExportLink jobId={data.id} />
        <Link href={`/jobs/${encodeURIComponent(data.id)}`}>Job page (cancel, payload, metadata)</Link>
      </div>
      <TrajectoryHeader job={data} />
      <TaskPanel
        payload={data.payload}
        exported={exported.data}
        promptBlock={blocks.find((block) => block.kind === "prompt")}
      />
      <TurnRewardsPanel exported={exported.data} />
      <TimingPanel job={data} turns={turns} toolCalls={toolCalls} />
      <Section
        id="turns"
        title={`Turns (${turns.length})`}
        description="Sampled tokens coloured by probability (hover, click or use the arrow keys for id, logprob, weight version and, when the job recorded them, the top-k alternatives); prompt and observation tokens greyed: the loss mask is 0 on them."
        testId="turns-section"
      >
        <TrajectoryTurns
          turns={turns}
          toolCalls={toolCalls}
          blocks={blocks}
          exported={exported.data}
          isPending={trajectory.isPending}
          isLoaded={trajectory.data !== undefined}
          isRunning={isRunning}
          error={trajectory.error}
          exportError={exported.error}
        />
      </Section>
      {data.kind === "harness" ? (
        <>
          <GatewayCallsPanel jobId={data.id} payload={data.payload} isRunning={isRunning} />
          <GatewayCertificatePanel jobId={data.id} isRunning={isRunning} />
        </>
      ) : null}
      <EvalReport result={data.result} />
    </div>
  );
}
