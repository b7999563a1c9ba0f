import type { TSandboxState } from "@raas/shared";
import type {
  HostSandboxClosure,
  SandboxEventRecord,
  SandboxRecord,
  SandboxSummary,
} from "../ports/sandbox-event-store.port";

const STDERR_TAIL_CHARS = 1_000;

/** States of a sandbox not closed yet: what `SandboxSummary.live` counts. */
export const OPEN_SANDBOX_STATES: readonly TSandboxState[] = ["starting", "ready", "busy", "closing"];

/** Whether a record is still open (no event closed it yet). */
export function isOpenSandbox(record: Pick<SandboxRecord, "state">): boolean {
  return OPEN_SANDBOX_STATES.includes(record.state);
}

/**
 * The `closed` events that close a host's open records for it (`closeHostSandboxes`): the host
 * died or stopped, so none of its own will ever come.
 */
export function hostClosureEvents(
  records: readonly SandboxRecord[],
  hostId: string,
  closure: HostSandboxClosure,
): SandboxEventRecord[] {
  return records
    .filter((record) => record.hostId === hostId && isOpenSandbox(record))
    .map((record) => ({
      sandboxId: record.id,
      jobId: record.jobId,
      hostId,
      type: "closed",
      state: closure.state,
      detail: { reason: closure.reason, closedBy: "recovery" },
      // Never before its own last event: lifetimes stay non-negative with skewed clocks.
      atMs: Math.max(closure.atMs, record.updatedAtMs),
    }));
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function integer(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) ? value : null;
}

function finite(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function emptyRecord(event: SandboxEventRecord): SandboxRecord {
  return {
    id: event.sandboxId,
    jobId: null,
    hostId: null,
    runtime: "unknown",
    state: event.state,
    createdAtMs: event.atMs,
    readyMs: null,
    closedAtMs: null,
    lifetimeMs: null,
    closeReason: null,
    limitKind: null,
    limitHits: 0,
    exitCode: null,
    exitSignal: null,
    stderrTail: null,
    error: null,
    updatedAtMs: event.atMs,
  };
}

/**
 * A sandbox's row after one more of its events: the last state, the job and host it ran for,
 * created → ready and lifetime timings, the first limit it hit, and why it crashed (exit code,
 * signal, stderr tail). Pure; events of one sandbox are folded in the order they happened.
 */
function foldSandboxEvent(current: SandboxRecord | null, event: SandboxEventRecord): SandboxRecord {
  const row = current ? { ...current } : emptyRecord(event);
  const detail = event.detail ?? {};
  row.state = event.state;
  row.updatedAtMs = Math.max(row.updatedAtMs, event.atMs);
  row.jobId = event.jobId ?? row.jobId;
  row.hostId = event.hostId ?? row.hostId;
  switch (event.type) {
    case "created":
      row.createdAtMs = event.atMs;
      row.runtime = text(detail.runtime) ?? row.runtime;
      break;
    case "ready":
      row.readyMs = finite(detail.readyMs) ?? event.atMs - row.createdAtMs;
      break;
    case "limit_hit":
      row.limitHits += 1;
      row.limitKind ??= text(detail.limit) ?? "unknown";
      break;
    case "crashed":
      row.exitCode = integer(detail.exitCode) ?? row.exitCode;
      row.exitSignal = text(detail.signal) ?? row.exitSignal;
      row.stderrTail = text(detail.stderrTail)?.slice(-STDERR_TAIL_CHARS) ?? row.stderrTail;
      row.error = text(detail.cause) ?? row.error;
      break;
    case "start_failed":
      row.error = text(detail.error) ?? row.error;
      row.stderrTail = text(detail.stderrTail)?.slice(-STDERR_TAIL_CHARS) ?? row.stderrTail;
      break;
    case "closed":
      row.closedAtMs = event.atMs;
      row.lifetimeMs = finite(detail.lifetimeMs) ?? event.atMs - row.createdAtMs;
      row.closeReason = text(detail.reason) ?? "closed";
      row.error = text(detail.error) ?? row.error;
      break;
    default:
      break;
  }
  return row;
}

/** Folds a batch of events into the rows they touch (`existing` holds rows stored before). */
export function foldSandboxEvents(
  existing: ReadonlyMap<string, SandboxRecord>,
  events: readonly SandboxEventRecord[],
): Map<string, SandboxRecord> {
  const touched = new Map<string, SandboxRecord>();
  for (const event of events) {
    const current = touched.get(event.sandboxId) ?? existing.get(event.sandboxId) ?? null;
    touched.set(event.sandboxId, foldSandboxEvent(current, event));
  }
  return touched;
}

function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100;
}

function countBy(keys: ReadonlyArray<string | null>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) if (key !== null) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}

/**
 * Completes a summary from its counts: crashes, failed and cancelled starts are close reasons;
 * live sandboxes are those in an open state.
 */
export function sandboxSummaryOf(
  counts: Omit<SandboxSummary, "crashed" | "startFailed" | "cancelled" | "live">,
): SandboxSummary {
  return {
    ...counts,
    crashed: counts.byCloseReason.crashed ?? 0,
    startFailed: counts.byCloseReason.start_failed ?? 0,
    cancelled: counts.byCloseReason.cancelled ?? 0,
    live: OPEN_SANDBOX_STATES.reduce((sum, state) => sum + (counts.byState[state] ?? 0), 0),
  };
}

/** The summary of sandbox rows and the limit kinds of their `limit_hit` events (one per event). */
export function summarizeSandboxes(
  rows: readonly SandboxRecord[],
  limitHitKinds: readonly string[],
): SandboxSummary {
  return sandboxSummaryOf({
    sandboxes: rows.length,
    byState: countBy(rows.map((row) => row.state)),
    byCloseReason: countBy(rows.map((row) => row.closeReason)),
    limitHits: countBy(limitHitKinds),
    meanReadyMs: mean(rows.flatMap((row) => (row.readyMs === null ? [] : [row.readyMs]))),
    meanLifetimeMs: mean(rows.flatMap((row) => (row.lifetimeMs === null ? [] : [row.lifetimeMs]))),
  });
}
