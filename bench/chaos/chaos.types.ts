// Shared shapes of the chaos bench: the faults it can inject, what a fault left on record, and
// what a phase of the workload observed.

/** Every fault the driver knows, in the order. */
export const FAULT_KINDS = [
  "worker-kill",
  "worker-sigterm",
  "server-kill",
  "redis-restart",
  "postgres-restart-10s",
  "postgres-restart-60s",
  "inference-outage",
  "sandbox-disk-full",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The `--quick` run's faults: one of each kind of dependency, all short. */
export const QUICK_FAULTS: readonly FaultKind[] = [
  "worker-kill",
  "postgres-restart-10s",
  "sandbox-disk-full",
];

/** One injected fault: when it began and when the driver restored what it broke. */
export interface FaultRecord {
  kind: FaultKind;
  /** Epoch ms the fault began (the kill, the stop, the first byte of the filler file). */
  startedAtMs: number;
  /**
   * Epoch ms the fault ended: the instant of a kill (a replacement is recovery, not fault), a
   * drained worker's exit, a dependency listening again, the filler file removed.
   */
  endedAtMs: number;
  /** What was hit: a worker id, a slot, the down time. */
  detail: string;
  /** Acknowledged jobs not yet final when it began (0: injected into an idle cluster). */
  outstandingAtStart: number;
  /** Set when the fault could not be injected (and why); its timing is then meaningless. */
  skipped?: string;
}

/** A process that exited, whether the driver made it exit or not. */
export interface ProcessExitRecord {
  name: string;
  pid: number;
  atMs: number;
  /** True when a fault of the driver caused it (a kill, a SIGTERM). */
  expected: boolean;
  /** `start`: it never came up (e.g. a replacement started while the database was away). */
  during: "start" | "run";
  code: number | null;
  /** The last lines it printed, for an unexpected exit's cause. */
  tail: string;
}

/** One job of the workload as the bench last saw it in the store. */
export interface ObservedJob {
  id: string;
  key: string;
  kind: string;
  taskId: string | null;
  acknowledgedAtMs: number;
  status: string;
  finishedAtMs: number | null;
  updatedAtMs: number | null;
  failureKind: string | null;
  reward: number | null;
}

/** What one phase (fault-free or chaos) of the workload saw. */
export interface PhaseResult {
  name: string;
  startedAtMs: number;
  /** When the last acknowledged job became final (or the deadline, when some never did). */
  endedAtMs: number;
  jobs: ObservedJob[];
  /** Acknowledged jobs not final when the phase ended (at its deadline: stuck). */
  notFinalIds: string[];
  /** Items never submitted: the loop was still waiting for room when the phase ended. */
  notSubmitted: number;
  /** Submit calls that failed (network error, 5xx, timeout) and were retried with the same keys. */
  submitRetries: number;
  /** Store polls that failed (the database away). */
  storePollFailures: number;
}
