import { formatCachedTokens, formatDurationMs } from "../../lib/format";
import type { TToolCallView, TTurnView } from "../../trpc/router-types";
import { ToolCallItem } from "./tool-call-item";

/** One model turn: token counts, backend, latency, decoded text, and the tool calls it made. */
export function TurnItem({ turn, toolCalls }: { turn: TTurnView; toolCalls: TToolCallView[] }) {
  return (
    <li className="turn" data-testid="turn">
      <p className="turn-meta">
        <strong>turn {turn.index}</strong> · {turn.promptIds.length} prompt tokens (
        {formatCachedTokens(turn.cachedPromptTokens)}) · {turn.responseIds.length} response tokens ·{" "}
        {formatDurationMs(turn.latencyMs)} · backend {turn.backendId ?? "—"} · weights{" "}
        {turn.weightVersion ?? "—"} · finish {turn.finishReason ?? "—"}
      </p>
      {turn.text !== null ? <pre className="turn-text">{turn.text}</pre> : null}
      {toolCalls.length > 0 ? (
        <ol className="tool-calls">
          {toolCalls.map((call) => (
            <ToolCallItem key={call.index} call={call} />
          ))}
        </ol>
      ) : null}
    </li>
  );
}
