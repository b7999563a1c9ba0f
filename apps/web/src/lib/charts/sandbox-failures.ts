/** The fields of a stored sandbox event these functions read (`sandboxes.events`). */
export interface TSandboxEventLike {
  sandboxId: string;
  jobId: string | null;
  hostId: string | null;
  type: string;
  detail?: Record<string, unknown> | null;
  atMs: number;
}

/** One failed sandbox with the reason a researcher reads first. */
export interface TSandboxFailure {
  sandboxId: string;
  jobId: string | null;
  hostId: string | null;
  atMs: number;
  /** `crashed`, `start_failed`, or the limit that closed it (`wall_time`, `memory_total`, …). */
  kind: string;
  reason: string;
}

/** Close reasons of a sandbox that ended as it should. */
const NORMAL_CLOSE_REASONS = new Set(["closed"]);

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

function lastLine(value: string | null): string | null {
  const lines = value?.split("\n").filter((line) => line.trim() !== "") ?? [];
  return lines.at(-1)?.trim() ?? null;
}

function crashReason(detail: Record<string, unknown>): string {
  const parts = [
    text(detail.cause),
    typeof detail.exitCode === "number" ? `exit code ${detail.exitCode}` : null,
    text(detail.signal) ? `signal ${text(detail.signal)}` : null,
  ].filter((part): part is string => part !== null);
  const stderr = lastLine(text(detail.stderrTail));
  if (stderr) parts.push(`stderr: ${stderr}`);
  return parts.length > 0 ? parts.join(", ") : "crashed (no detail recorded)";
}

function failureOf(event: TSandboxEventLike): TSandboxFailure | null {
  const detail = event.detail ?? {};
  const base = { sandboxId: event.sandboxId, jobId: event.jobId, hostId: event.hostId, atMs: event.atMs };
  switch (event.type) {
    case "crashed":
      return { ...base, kind: "crashed", reason: crashReason(detail) };
    case "start_failed":
      return {
        ...base,
        kind: "start_failed",
        reason:
          text(detail.error) ?? lastLine(text(detail.stderrTail)) ?? "failed to start (no detail recorded)",
      };
    case "closed": {
      const closeReason = text(detail.reason) ?? "closed";
      if (NORMAL_CLOSE_REASONS.has(closeReason)) return null;
      return {
        ...base,
        kind: closeReason,
        reason: text(detail.error) ?? `closed by its ${closeReason} limit`,
      };
    }
    default:
      return null;
  }
}

/**
 * The newest failed sandboxes, one row each, from their events: crashes (cause, exit code,
 * signal, stderr's last line), failed starts, and closes by a limit. A crashed sandbox's later
 * `closed` event (reason `crashed`) is the same failure: the more detailed event (and its time) wins.
 */
export function recentSandboxFailures(events: readonly TSandboxEventLike[], limit = 20): TSandboxFailure[] {
  const bySandbox = new Map<string, TSandboxFailure>();
  const rank = (kind: string) => (kind === "crashed" || kind === "start_failed" ? 1 : 0);
  for (const event of events) {
    const failure = failureOf(event);
    if (!failure) continue;
    const known = bySandbox.get(failure.sandboxId);
    if (!known || rank(failure.kind) > rank(known.kind)) {
      bySandbox.set(failure.sandboxId, failure);
    }
  }
  return [...bySandbox.values()].sort((a, b) => b.atMs - a.atMs).slice(0, limit);
}
