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
import { GatewayCertificatePanel } from "./gateway-certificate-panel";
import { TaskPanel } from "./task-panel";
import { TimingPanel } from "./timing-panel";
import { tokenBlocks } from "./token-blocks";
import { TokenLegend } from "./token-view";
import styles from "./trajectory.module.css";
import { TrajectoryHeader } from "./trajectory-header";
import { TurnPanel } from "./turn-panel";

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
      <TimingPanel job={data} turns={turns} toolCalls={toolCalls} />
      <Section
        id="turns"
        title={`Turns (${turns.length})`}
        description="Sampled tokens coloured by probability (hover, click or use the arrow keys for id, logprob and weight version); prompt and observation tokens greyed: the loss mask is 0 on them."
        testId="turns-section"
      >
        {trajectory.isPending ? <StateMessage kind="loading" title="Loading turns and tool calls…" /> : null}
        {trajectory.error ? <ErrorState what="the turns" error={trajectory.error} /> : null}
        {exported.error ? <ErrorState what="the token export" error={exported.error} /> : null}
        {exported.data && !exported.data.tokenExact ? (
          <p className={styles.warning} role="note" data-testid="token-break">
            Not token-exact: {exported.data.tokenBreak?.message ?? "the stored turns break the token stream"}.
            Tokens stop before turn {exported.data.tokenBreak?.turnIndex ?? "?"}.
          </p>
        ) : null}
        {trajectory.data && turns.length === 0 ? (
          <StateMessage
            kind="empty"
            title={isRunning ? "No turn recorded yet." : "No turns recorded for this job."}
          >
            <p>
              {isRunning
                ? "Turns appear here as the model answers; this page refreshes every 2 s."
                : "Diagnostic sleep jobs record none; agent handlers (math, code, swe) store every model turn and tool call."}
            </p>
          </StateMessage>
        ) : null}
        {turns.length > 0 ? (
          <>
            <TokenLegend />
            <ol className={styles.turns}>
              {turns.map((turn) => (
                <TurnPanel
                  key={turn.index}
                  turn={turn}
                  span={exported.data?.turns.find((span) => span.index === turn.index)}
                  blocks={blocks.filter((block) => block.kind !== "prompt" && block.turnIndex === turn.index)}
                  exported={exported.data}
                  toolCalls={toolCalls.filter((call) => call.turnIndex === turn.index)}
                />
              ))}
            </ol>
          </>
        ) : null}
      </Section>
      {data.kind === "harness" ? <GatewayCertificatePanel jobId={data.id} isRunning={isRunning} /> : null}
      <EvalReport result={data.result} />
    </div>
  );
}
