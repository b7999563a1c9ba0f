import { formatDurationMs } from "../../lib/format";
import type { TToolCallView } from "../../trpc/router-types";

/** One tool call: name, arguments, exit code, duration and output. */
export function ToolCallItem({ call }: { call: TToolCallView }) {
  return (
    <li className={call.isError ? "tool-call tool-error" : "tool-call"} data-testid="tool-call">
      <p className="turn-meta">
        <strong>{call.name}</strong> · exit {call.exitCode ?? "—"} · {formatDurationMs(call.durationMs)}
        {call.isError ? " · error" : null}
      </p>
      <pre className="json">{JSON.stringify(call.arguments, null, 2)}</pre>
      <pre className="tool-output">{call.output}</pre>
    </li>
  );
}
