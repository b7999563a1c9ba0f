import { formatCachedTokens, formatDurationMs, formatNumber } from "../../lib/format";
import type { TToolCallView, TTurnView } from "../../trpc/router-types";
import { ToolCallItem } from "../job/tool-call-item";
import { splitThinking, type TTokenBlock } from "./token-blocks";
import { TokenView } from "./token-view";
import styles from "./trajectory.module.css";
import type { TExportView } from "./trajectory-types";
import { turnRewardSource } from "./turn-rewards-panel";

type TTurnSpanView = TExportView["turns"][number];

/**
 * One model turn: its numbers (cached prompt tokens, latency, backend, weights), its thinking and
 * text, the token view of what it sampled and the observation that followed, its per-step
 * rewards, and its tool calls.
 */
export function TurnPanel({
  turn,
  span,
  blocks,
  exported,
  toolCalls,
}: {
  turn: TTurnView;
  span: TTurnSpanView | undefined;
  blocks: readonly TTokenBlock[];
  exported: TExportView | undefined;
  toolCalls: readonly TToolCallView[];
}) {
  const { thinking, answer } = splitThinking(turn.text);
  const hasSeveralVersions = (span?.weightVersionSpans.length ?? 0) > 1;
  const rewards = exported?.turnRewards.filter((entry) => entry.turn === turn.index) ?? [];
  return (
    <li className={styles.turn} data-testid={`turn-${turn.index}`} id={`turn-${turn.index}`}>
      <h3 className={styles.turnTitle}>Turn {turn.index}</h3>
      {rewards.length > 0 ? (
        <p className={styles.meta} data-testid={`turn-${turn.index}-rewards`}>
          Step reward{rewards.length > 1 ? "s" : ""}:{" "}
          {rewards
            .map(
              (entry) =>
                `${formatNumber(entry.reward, 3)} from ${turnRewardSource(entry)}${entry.source === "verifier" && entry.label ? ` (${entry.label})` : ""}`,
            )
            .join("; ")}
        </p>
      ) : null}
      <p className={styles.meta}>
        {turn.promptIds.length} prompt tokens (
        <span data-testid={`turn-${turn.index}-cached`}>{formatCachedTokens(turn.cachedPromptTokens)}</span>)
        · <span data-testid={`turn-${turn.index}-sampled`}>{turn.responseIds.length}</span> sampled ·{" "}
        {formatDurationMs(turn.latencyMs)} · backend {turn.backendId ?? "—"} · weights{" "}
        {turn.weightVersion ?? "—"} · finish {turn.finishReason ?? "—"}
      </p>
      {hasSeveralVersions && span ? (
        <div data-testid={`turn-${turn.index}-weight-spans`}>
          <p className={styles.label}>Weight versions of its tokens (continued across a weight sync)</p>
          <ul className={styles.spans}>
            {span.weightVersionSpans.map((part) => (
              <li key={part.start}>
                tokens {part.start - span.start}–{part.end - span.start - 1} of the turn: weights{" "}
                {part.weightVersion ?? "—"}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {thinking !== null ? (
        <details>
          <summary>Thinking ({thinking.length} characters)</summary>
          <pre className={`${styles.text} ${styles.thinking}`}>{thinking}</pre>
        </details>
      ) : null}
      {answer !== "" ? (
        <>
          <p className={styles.label}>Model text</p>
          <pre className={styles.text} data-testid={`turn-${turn.index}-text`}>
            {answer}
          </pre>
        </>
      ) : null}
      {exported && blocks.length > 0 ? (
        <>
          <p className={styles.label}>Tokens (ids)</p>
          <TokenView
            exported={exported}
            blocks={blocks}
            label={`Tokens of turn ${turn.index}`}
            testId={`token-view-${turn.index}`}
          />
        </>
      ) : (
        <p className={styles.meta}>
          No token view: the export stops before this turn (see the warning above).
        </p>
      )}
      {toolCalls.length > 0 ? (
        <>
          <p className={styles.label}>Tool calls and observations</p>
          <ol className="tool-calls">
            {toolCalls.map((call) => (
              <ToolCallItem key={call.index} call={call} />
            ))}
          </ol>
        </>
      ) : null}
    </li>
  );
}
