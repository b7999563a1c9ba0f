// The engine's public surface, listed name by name (no `export *`): what is not here is internal.
// Training (@raas/training) and the adapters use only these names.

export { ActionRepeatDetector, actionKey } from "./agent/action-repeat-detector";
export { DEFAULT_AGENT_LIMITS, resolveAgentLimits } from "./agent/agent-limits";
export { runAgentLoop } from "./agent/agent-loop";
export {
  AGENT_STOP_REASONS,
  type AgentEvent,
  type AgentLoopLimits,
  type AgentLoopResult,
  type AgentStopReason,
  type AgentToolbox,
  type AgentTurn,
  type RunAgentLoopOptions,
} from "./agent/agent-loop.types";
export { defaultObservation, truncateMiddle } from "./agent/observation-text";
export { validateToolArguments } from "./agent/tool-arguments.validator";
export { classifyToolError } from "./agent/tool-call-failure";
export {
  BackendDirectory,
  type BackendDirectoryOptions,
  type BackendManager,
} from "./backends/backend-directory";
export {
  type BackendWorkerView,
  liveBackendReports,
  type MergedBackendView,
  mergeBackendViews,
  type WorkerBackendReport,
} from "./backends/merge-backend-views";
export { defineHandler, isErasedHandler } from "./define-handler";
export type {
  EngineLogger,
  EngineOptions,
  JobEvent,
  JobEventListener,
  StagePoolOptions,
  SubmitOptions,
  SubmitResult,
  WaitResult,
} from "./engine.types";
export { DEFAULT_HELD_SANDBOX_SWEEP_MS, DEFAULT_STOP_GRACE_MS } from "./engine-defaults";
export { buildTrajectoryExport } from "./export/build-trajectory-export";
export { findTokenBreak, type TokenCheckTurn } from "./export/token-break";
export {
  MAX_EXPORT_PAGE_SIZE,
  TrajectoryExporter,
  type TrajectoryExporterOptions,
} from "./export/trajectory-exporter";
export { buildGatewayTraces } from "./gateway/build-gateway-traces";
export type { GatewayCallBase, GatewayCallStore } from "./gateway/gateway-call-store.port";
export { type GatewaySession, GatewaySessionRegistry } from "./gateway/gateway-session-registry";
export { MemoryGatewayCallStore } from "./gateway/memory-gateway-call-store";
export { extendsStream, firstStreamDifference, isPrefix, type TokenStreamCall } from "./gateway/token-prefix";
export { HandlerRegistry } from "./handler-registry";
export {
  createSleepHandler,
  type SleepHandlerOptions,
  type TSleepPayload,
  ZSleepPayload,
  ZSleepResult,
} from "./handlers/sleep-handler";
export {
  type ClassifiedFailure,
  classifyFailure,
  DEFAULT_FAILURE_REWARD,
  defaultFailureKind,
  failureRewardOf,
  isRestartedFromInit,
  TAMPERED_REWARD,
} from "./lifecycle/failure-classifier";
export {
  applyTransition,
  canTransition,
  describeState,
  InvalidTransitionError,
  isTrainable,
  type JobTransition,
} from "./lifecycle/job-state-machine";
export { matchesJobFilter } from "./memory/job-filter";
export { MemoryBackendRegistrationStore } from "./memory/memory-backend-registration-store";
export { MemoryBenchmarkRunStore } from "./memory/memory-benchmark-run-store";
export { MemoryEventBus } from "./memory/memory-event-bus";
export { MemoryJobQueue } from "./memory/memory-job-queue";
export { MemoryJobStore } from "./memory/memory-job-store";
export { MemoryWorkerStore } from "./memory/memory-worker-store";
export {
  MAX_POLICY_REASON_CHARS,
  type PolicyFault,
  type PolicyFaultMarks,
  policyFaultOf,
} from "./policy-fault";
export type {
  BackendRegistrationStore,
  StoredBackend,
  StoredBackendRecord,
  TStoredBackendState,
} from "./ports/backend-registration-store.port";
export type {
  BenchmarkResultRecord,
  BenchmarkRunFilter,
  BenchmarkRunRecord,
  BenchmarkRunStatus,
  BenchmarkRunStore,
  NewBenchmarkResult,
  NewBenchmarkRun,
  TestOutcomes,
} from "./ports/benchmark-run-store.port";
export type {
  ChatCallError,
  ChatFormat,
  ChatObservation,
  ChatToolCall,
  InitialPromptInput,
  ParsedChatResponse,
} from "./ports/chat-format.port";
export { type Clock, systemClock } from "./ports/clock.port";
export { BUS_CHANNELS, type EventBus, type TBusChannel } from "./ports/event-bus.port";
export type {
  BackendRegistration,
  BackendView,
  GenerateRequest,
  GenerateResult,
  GenerationFlow,
  GenerationFlowResolver,
  GenerationPolicyResolver,
  InferenceBackendKind,
  InferenceBackendRegistry,
  InferencePool,
  InferenceRouter,
  SamplingParams,
  WeightVersionSpan,
} from "./ports/inference-pool.port";
export type { JobQueue, Lease, QueueItem, ReserveOptions } from "./ports/job-queue.port";
export type {
  JobHandoff,
  JobPatch,
  JobRecord,
  JobTransitionWrite,
  StoredJob,
} from "./ports/job-record.types";
export type { JobListPage, JobStore, JobTotals } from "./ports/job-store.port";
export type { PolicySink } from "./ports/policy-sink.port";
export type {
  HostSandboxClosure,
  SandboxEventFilter,
  SandboxEventRecord,
  SandboxEventStore,
  SandboxRecord,
  SandboxSummary,
  SandboxSummaryFilter,
} from "./ports/sandbox-event-store.port";
export type {
  PreparedSandboxTemplate,
  PrepareTemplateOptions,
  Sandbox,
  SandboxEventListener,
  SandboxExecOptions,
  SandboxExecResult,
  SandboxFileEntry,
  SandboxHostChannel,
  SandboxHostStatus,
  SandboxLimits,
  SandboxLimitsInForce,
  SandboxRuntime,
  SandboxSpec,
  SandboxTemplate,
  ToolCallOptions,
  ToolResult,
  ToolSpec,
} from "./ports/sandbox-runtime.port";
export {
  ZBenchmarkJsonObject,
  ZJobHandoff,
  ZStoredTestOutcomes,
  ZWorkerBackends,
  ZWorkerPools,
} from "./ports/stored-values.schema";
export type {
  AnyTaskHandler,
  Cleanup,
  EvalContext,
  EvalOutcome,
  RunContext,
  StageContext,
  TaskHandler,
  TrajectoryRecorder,
} from "./ports/task-handler.port";
export type { ArchivedJobsOutcome, TrajectoryRetention } from "./ports/trajectory-retention.port";
export type {
  TWorkerStatus,
  WorkerBeat,
  WorkerPoolOccupancy,
  WorkerRecord,
  WorkerRegistration,
  WorkerStore,
} from "./ports/worker-store.port";
export {
  type FlowSnapshot,
  RolloutEngine,
  type StageFinishedEvent,
  type WorkerRecovery,
} from "./rollout-engine";
export type { BackendEngineCounters, BackendReportedCounters, BackendStats } from "./routing/backend-stats";
export {
  type CircuitBreakerOptions,
  type CircuitState,
  type CircuitStatus,
  DEFAULT_CIRCUIT_BREAKER_OPTIONS,
} from "./routing/circuit-breaker";
export type {
  BackendLifecycle,
  BackendSnapshot,
  RequestOutcome,
  RoutableBackend,
  RouteDecision,
  RouteReason,
  StickyRouterOptions,
} from "./routing/routing.types";
export { type AcquireOptions, StickyRouter } from "./routing/sticky-router";
export {
  DEFAULT_HARNESS_SAMPLING,
  describeSamplingConflicts,
  findSamplingConflicts,
  HARNESS_SAMPLING_FIELDS,
  type HarnessSamplingPolicy,
  type SamplingConflict,
} from "./sampling/harness-sampling";
export {
  DEFAULT_MIN_P,
  DEFAULT_TEMPERATURE,
  DEFAULT_TOP_K,
  DEFAULT_TOP_P,
  describeSampling,
  type JobSampling,
} from "./sampling/sampling-record";
export {
  DEFAULT_DEAD_HOST_SWEEP_INTERVAL_MS,
  DEFAULT_STOPPED_HOST_GRACE_MS,
  type DeadHostSweep,
  DeadHostSweeper,
  type DeadHostSweeperOptions,
} from "./sandbox-events/dead-host-sweeper";
export {
  DEFAULT_SANDBOX_EVENT_LIMIT,
  MemorySandboxEventStore,
  matchesSandboxEvent,
} from "./sandbox-events/memory-sandbox-event-store";
export {
  SandboxEventRecorder,
  type SandboxEventRecorderOptions,
  type SandboxEventRecorderStats,
} from "./sandbox-events/sandbox-event-recorder";
export {
  foldSandboxEvent,
  foldSandboxEvents,
  hostClosureEvents,
  isOpenSandbox,
  OPEN_SANDBOX_STATES,
  sandboxSummaryOf,
  summarizeSandboxes,
} from "./sandbox-events/sandbox-record-fold";
export {
  FairGrantQueue,
  type FairGrantQueueOptions,
  type Grant,
  type GrantFlow,
  type GrantFlowSnapshot,
} from "./scheduling/fair-grant-queue";
export {
  arriveUnit,
  compareFlows,
  dispatchUnit,
  emptyFairQueue,
  estimateCost,
  type FairQueueState,
  type FlowShare,
  type FlowState,
  finishUnit,
  isEligible,
  pickFlow,
  pruneIdleFlows,
  systemVirtualTime,
  withdrawUnit,
} from "./scheduling/fair-queue";
export {
  admissionWindow,
  type FairShareOptions,
  MIN_ADMISSION_WINDOW,
  type TResolvedFairShareOptions,
  withFairShareDefaults,
} from "./scheduling/fair-share-options";
export { type JobFlow, jobFlowOf, NO_RUN_FLOW, runShareMetadata } from "./scheduling/job-flow";
export {
  choosePreemptions,
  PREEMPTIBLE_STAGES,
  type PreemptionInput,
  type RunningUnit,
  type WaitingUnit,
} from "./scheduling/preemption";
export { asStageFailure, isStageFailure, StageFailure, type StageFailureOptions } from "./stage-failure";
export { isNetworkError } from "./store-health/network-error";
export { StoreHealth, type StoreHealthOptions, type StoreHealthState } from "./store-health/store-health";
export {
  type BackoffOptions,
  backoffDelayMs,
  DEFAULT_STORE_BACKOFF,
  retryWhileUnreachable,
  type StoreRetryOptions,
} from "./store-health/store-retry";
export { type AbortCause, abortCauseOf, EngineAbort, sleep, whenAborted } from "./util/abort";
export { BinaryHeap } from "./util/binary-heap";
export {
  parseWorkerBusMessage,
  type TWorkerBusMessage,
  WORKER_BUS_EVENTS,
  ZWorkerBusMessage,
} from "./workers/worker-bus-message";
export { type LiveSlotsOptions, liveWorkerSlots, workerCapacity } from "./workers/worker-capacity";
export {
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  DEFAULT_MISSED_AFTER_MS,
  DEFAULT_MONITOR_INTERVAL_MS,
} from "./workers/worker-defaults";
export { WorkerHeartbeat, type WorkerHeartbeatOptions } from "./workers/worker-heartbeat";
export { WorkerMonitor, type WorkerMonitorOptions } from "./workers/worker-monitor";
