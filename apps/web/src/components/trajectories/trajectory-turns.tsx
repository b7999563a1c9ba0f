import { StateMessage } from "@raas/ui/state-message";
import type { TToolCallView, TTurnView } from "../../trpc/router-types";
import { ErrorState } from "../error-state";
import type { TTokenBlock } from "./token-blocks";
import { TokenLegend } from "./token-view";
import styles from "./trajectory.module.css";
import type { TExportView } from "./trajectory-types";
import { TurnPanel } from "./turn-panel";
import { WeightVersionLegend } from "./weight-version-legend";

/** The turns of a trajectory with their token views and tool calls, or why there are none yet. */
export function TrajectoryTurns({
  turns,
  toolCalls,
  blocks,
  exported,
  isPending,
  isLoaded,
  isRunning,
  error,
  exportError,
}: {
  turns: readonly TTurnView[];
  toolCalls: readonly TToolCallView[];
  blocks: readonly TTokenBlock[];
  exported: TExportView | undefined;
  /** The turns are still loading; `isLoaded` once they are. */
  isPending: boolean;
  isLoaded: boolean;
  isRunning: boolean;
  error: unknown;
  exportError: unknown;
}) {
  return (
    <>
      {isPending ? <StateMessage kind="loading" title="Loading turns and tool calls…" /> : null}
      {error ? <ErrorState what="the turns" error={error} /> : null}
      {exportError ? <ErrorState what="the token export" error={exportError} /> : null}
      {exported && !exported.tokenExact ? (
        <p className={styles.warning} role="note" data-testid="token-break">
          Not token-exact: {exported.tokenBreak?.message ?? "the stored turns break the token stream"}. Tokens
          stop before turn {exported.tokenBreak?.turnIndex ?? "?"}.
        </p>
      ) : null}
      {isLoaded && turns.length === 0 ? (
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
          {exported ? <WeightVersionLegend exported={exported} /> : null}
          <ol className={styles.turns}>
            {turns.map((turn) => (
              <TurnPanel
                key={turn.index}
                turn={turn}
                span={exported?.turns.find((span) => span.index === turn.index)}
                blocks={blocks.filter((block) => block.kind !== "prompt" && block.turnIndex === turn.index)}
                exported={exported}
                toolCalls={toolCalls.filter((call) => call.turnIndex === turn.index)}
              />
            ))}
          </ol>
        </>
      ) : null}
    </>
  );
}
