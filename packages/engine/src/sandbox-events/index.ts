export {
  DEFAULT_DEAD_HOST_SWEEP_INTERVAL_MS,
  DEFAULT_STOPPED_HOST_GRACE_MS,
  type DeadHostSweep,
  DeadHostSweeper,
  type DeadHostSweeperOptions,
} from "./dead-host-sweeper";
export {
  DEFAULT_SANDBOX_EVENT_LIMIT,
  MemorySandboxEventStore,
  matchesSandboxEvent,
} from "./memory-sandbox-event-store";
export {
  SandboxEventRecorder,
  type SandboxEventRecorderOptions,
  type SandboxEventRecorderStats,
} from "./sandbox-event-recorder";
export {
  foldSandboxEvent,
  foldSandboxEvents,
  hostClosureEvents,
  isOpenSandbox,
  OPEN_SANDBOX_STATES,
  sandboxSummaryOf,
  summarizeSandboxes,
} from "./sandbox-record-fold";
