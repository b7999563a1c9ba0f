import type { TSandboxEvent, TSandboxState } from "@raas/shared";

/** A sandbox runtime's event as stored: the event plus the worker or host that ran the sandbox. */
export interface SandboxEventRecord extends TSandboxEvent {
  /** Worker or host id (e.g. `node-3:4711`); null when the recorder was given none. */
  hostId: string | null;
}

/** One sandbox as its stored events describe it (see `foldSandboxEvent`). */
export interface SandboxRecord {
  id: string;
  jobId: string | null;
  hostId: string | null;
  /** `bubblewrap`, `apptainer`, `local`, or `unknown` when the `created` event was not seen. */
  runtime: string;
  /** Last known state. */
  state: TSandboxState;
  createdAtMs: number;
  /** created → ready, in ms; null until (or unless) it became ready. */
  readyMs: number | null;
  closedAtMs: number | null;
  /** created → closed, in ms. */
  lifetimeMs: number | null;
  /**
   * Why it closed: `closed`, `crashed`, `start_failed`, `cancelled`, `wall_time`, `cpu_total`,
   * `memory_total`, …, or `worker_lost` / `worker_stopped` when recovery closed it for its host.
   */
  closeReason: string | null;
  /** The first limit it hit (`processes`, `memory`, `wallTime`, `cpuTotal`, `output`, …). */
  limitKind: string | null;
  /** How many `limit_hit` events it had. */
  limitHits: number;
  exitCode: number | null;
  /** Signal that ended the launcher when it crashed (`SIGKILL`), else null. */
  exitSignal: string | null;
  /** The tail of the launcher's stderr when it crashed or failed to start. */
  stderrTail: string | null;
  /** Why it crashed or failed to start. */
  error: string | null;
  updatedAtMs: number;
}

export interface SandboxEventFilter {
  jobId?: string;
  sandboxId?: string;
  hostId?: string;
  /** Event type: `created`, `ready`, `limit_hit`, `crashed`, `closed`, `start_failed`, … */
  type?: string;
  /** Only events at or after this time (ms since the epoch). */
  sinceMs?: number;
  /** Most events returned (the newest). Default 100. */
  limit?: number;
}

export interface SandboxSummaryFilter {
  hostId?: string;
  /** Only sandboxes created at or after this time (ms since the epoch). */
  sinceMs?: number;
}

export interface SandboxSummary {
  /** Sandboxes seen. */
  sandboxes: number;
  /** Sandboxes by last known state (`ready`, `closed`, `failed`, …). */
  byState: Record<string, number>;
  /** Sandboxes by close reason (`closed`, `crashed`, `wall_time`, …); open ones are not counted. */
  byCloseReason: Record<string, number>;
  /** `limit_hit` events by limit kind. */
  limitHits: Record<string, number>;
  /** Sandboxes that crashed (close reason `crashed`). */
  crashed: number;
  /** Sandboxes that failed to start (close reason `start_failed`); cancelled starts are not among them. */
  startFailed: number;
  /** Sandboxes whose start was cancelled (close reason `cancelled`: their job was cancelled meanwhile). */
  cancelled: number;
  /**
   * Sandboxes not closed yet (`starting`, `ready`, `busy` or `closing`). The records of a host that
   * died or stopped are closed by recovery (`closeHostSandboxes`), so these are of live hosts.
   */
  live: number;
  /** Mean created → ready time in ms over the sandboxes that became ready; null when none did. */
  meanReadyMs: number | null;
  /** Mean lifetime in ms over the closed sandboxes; null when none closed. */
  meanLifetimeMs: number | null;
}

/** How `closeHostSandboxes` closes the records a host left open. */
export interface HostSandboxClosure {
  /** The close reason stored: `worker_lost` (the host died under them), `worker_stopped`. */
  reason: string;
  /** `failed` when the host died under them, `closed` when it stopped. */
  state: "closed" | "failed";
  /** When, in ms since the epoch. */
  atMs: number;
}

/**
 * Where sandbox lifecycle events are kept (PGlite/PostgreSQL in `@raas/db`, or in memory): the
 * event log and, folded from it as events arrive, one row per sandbox for health views.
 */
export interface SandboxEventStore {
  /** Appends events (in the order given) and updates their sandboxes' rows. */
  appendEvents(events: readonly SandboxEventRecord[]): Promise<void>;
  /** Matching events, newest first. */
  listEvents(filter?: SandboxEventFilter): Promise<SandboxEventRecord[]>;
  /** One sandbox's row, or null. */
  getSandbox(id: string): Promise<SandboxRecord | null>;
  /** Counts by state, close reason and limit kind, and mean timings. */
  summarize(filter?: SandboxSummaryFilter): Promise<SandboxSummary>;
  /** Host ids that have sandboxes not closed yet (`SandboxSummary.live`), each once. */
  listOpenHostIds(): Promise<string[]>;
  /**
   * Closes every record of `hostId` still open — its host died or stopped, so no event will ever
   * close them — with one `closed` event each (`detail.reason`, `detail.closedBy: "recovery"`).
   * Idempotent: a second call finds nothing open. Returns the sandbox ids it closed.
   */
  closeHostSandboxes(hostId: string, closure: HostSandboxClosure): Promise<string[]>;
}
