/** One bar of a trajectory's activity strip: a model turn's generation or a tool call. */
export interface TActivity {
  kind: "generation" | "tool";
  label: string;
  /** Offsets from the first activity's start, in ms. */
  startMs: number;
  endMs: number;
}

/**
 * Turns and tool calls placed on one time axis. Each is stored when it ended, with how long it
 * took, so it started `createdAtMs - duration` before; offsets are from the earliest start.
 */
export function activityTimeline(
  turns: ReadonlyArray<{ index: number; createdAtMs: number; latencyMs: number }>,
  toolCalls: ReadonlyArray<{
    turnIndex: number;
    index: number;
    name: string;
    createdAtMs: number;
    durationMs: number;
  }>,
): { activities: TActivity[]; spanMs: number } {
  const raw = [
    ...turns.map((turn) => ({
      kind: "generation" as const,
      label: `turn ${turn.index} generation`,
      start: turn.createdAtMs - turn.latencyMs,
      end: turn.createdAtMs,
    })),
    ...toolCalls.map((call) => ({
      kind: "tool" as const,
      label: `turn ${call.turnIndex} tool ${call.name}`,
      start: call.createdAtMs - call.durationMs,
      end: call.createdAtMs,
    })),
  ].sort((a, b) => a.start - b.start || a.end - b.end);
  const first = raw[0];
  if (!first) return { activities: [], spanMs: 0 };
  const origin = first.start;
  const activities = raw.map((item) => ({
    kind: item.kind,
    label: item.label,
    startMs: item.start - origin,
    endMs: Math.max(item.start, item.end) - origin,
  }));
  const spanMs = Math.max(...activities.map((activity) => activity.endMs));
  return { activities, spanMs };
}
