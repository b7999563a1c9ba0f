"use client";

import { StateMessage } from "@raas/ui/state-message";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import { ToolCallItem } from "./tool-call-item";
import { TurnItem } from "./turn-item";

/** Turns and tool calls stored for a job, in order; plain text for now. */
export function TrajectorySection({ jobId, isTerminal }: { jobId: string; isTerminal: boolean }) {
  const trpc = useTRPC();
  const trajectory = useQuery(
    trpc.jobs.trajectory.queryOptions({ jobId }, { refetchInterval: isTerminal ? false : 2_000 }),
  );
  return (
    <section aria-labelledby="trajectory-heading" data-testid="trajectory">
      <h2 id="trajectory-heading">Trajectory</h2>
      {trajectory.isPending ? <StateMessage kind="loading" title="Loading turns and tool calls…" /> : null}
      {trajectory.isError ? <ErrorState what="the trajectory" error={trajectory.error} /> : null}
      {trajectory.data && trajectory.data.turns.length === 0 && trajectory.data.toolCalls.length === 0 ? (
        <StateMessage kind="empty" title="No turns or tool calls recorded for this job.">
          <p>
            Diagnostic <code>sleep</code> jobs record none; agent handlers (swe, math, code) store each model
            turn and tool call here.
          </p>
        </StateMessage>
      ) : null}
      {trajectory.data?.turns.length ? (
        <ol className="turns">
          {trajectory.data.turns.map((turn) => (
            <TurnItem
              key={turn.index}
              turn={turn}
              toolCalls={trajectory.data.toolCalls.filter((call) => call.turnIndex === turn.index)}
            />
          ))}
        </ol>
      ) : null}
      {trajectory.data && trajectory.data.turns.length === 0 && trajectory.data.toolCalls.length > 0 ? (
        <ol className="tool-calls">
          {trajectory.data.toolCalls.map((call) => (
            <ToolCallItem key={`${call.turnIndex}-${call.index}`} call={call} />
          ))}
        </ol>
      ) : null}
    </section>
  );
}
