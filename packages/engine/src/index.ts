// The engine's public surface, listed name by name (no `export *`): what is not here is internal.
// Training (@raas/training) and the adapters use only these names.

export { runAgentLoop } from "./agent/agent-loop";
export {
  AGENT_STOP_REASONS,
  type AgentEvent,
  type AgentLoopLimits,
  type AgentLoopResult,
  type AgentStopReason,
  type AgentToolbox,
} from "./agent/agent-loop.types";
export type { AgentLoopRequest, AgentLoopRunner } from "./agent/agent-loop-runner.types";
export { defaultObservation } from "./agent/observation-text";
export { scoreWithTeacher } from "./agent/teacher-scoring";

export {
  BackendDirectory,
  type BackendManager,
} from "./backends/backend-directory";

export { defineHandler } from "./define-handler";
export type {
  EngineLogger,
  EngineOptions,
  JobEvent,
  JobEventListener,
  SubmitOptions,
  SubmitResult,
} from "./engine.types";
export { DEFAULT_STOP_GRACE_MS } from "./engine-defaults";

export { TrajectoryExporter } from "./export/trajectory-exporter";
export { buildGatewayTraces } from "./gateway/build-gateway-traces";
export type { GatewayCallBase, GatewayCallStore } from "./gateway/gateway-call-store.port";
export { type GatewaySession, GatewaySessionRegistry } from "./gateway/gateway-session-registry";
export { MemoryGatewayCallStore } from "./gateway/memory-gateway-call-store";
export { firstStreamDifference } from "./gateway/token-prefix";
export { WriteBehindGatewayCallStore } from "./gateway/write-behind-gateway-call-store";
export { HandlerRegistry } from "./handler-registry";
export { createSleepHandler } from "./handlers/sleep-handler";

export { MemoryBackendRegistrationStore } from "./memory/memory-backend-registration-store";
export { MemoryBenchmarkRunStore } from "./memory/memory-benchmark-run-store";
export { MemoryEnvironmentStore } from "./memory/memory-environment-store";
export { MemoryEventBus } from "./memory/memory-event-bus";
export { MemoryJobQueue } from "./memory/memory-job-queue";
export { MemoryJobStore } from "./memory/memory-job-store";
export { MemoryWorkerStore } from "./memory/memory-worker-store";
export type {
  BackendRegistrationStore,
  StoredBackend,
  StoredBackendRecord,
  TStoredBackendState,
} from "./ports/backend-registration-store.port";
export type {
  BenchmarkResultRecord,
  BenchmarkRunRecord,
  BenchmarkRunStatus,
  BenchmarkRunStore,
} from "./ports/benchmark-run-store.port";
export type {
  ChatFormat,
  ChatToolCall,
  ParsedChatResponse,
} from "./ports/chat-format.port";
export { type Clock, systemClock } from "./ports/clock.port";
export type {
  EnvironmentRecord,
  EnvironmentStore,
  NewEnvironment,
  OracleCheckRecord,
} from "./ports/environment-store.port";
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
  ScorePromptRequest,
  ScorePromptResult,
  TopLogprob,
  WeightVersionSpan,
} from "./ports/inference-pool.port";
export type { JobQueue, Lease, QueueItem, ReserveOptions } from "./ports/job-queue.port";
export type {
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
  SandboxHostChannel,
  SandboxHostStatus,
  SandboxLimits,
  SandboxLimitsInForce,
  SandboxProcess,
  SandboxProcessExit,
  SandboxReadOnlyBind,
  SandboxRuntime,
  SandboxSpawnOptions,
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
export type {
  ToolServerEnd,
  ToolServerProvider,
  ToolServerSession,
  ToolServerSpec,
} from "./ports/tool-server-provider.port";
export type { ArchivedJobsOutcome, TrajectoryRetention } from "./ports/trajectory-retention.port";
export {
  IMAGE_PREFETCH_STATUSES,
  MAX_STORED_PREFETCH_REQUESTS,
  type TImagePrefetchRequest,
  type TWorkerImages,
  ZImagePrefetchRequests,
  ZWorkerImages,
} from "./ports/worker-images.types";
export type {
  WorkerBeat,
  WorkerPoolOccupancy,
  WorkerRecord,
  WorkerRegistration,
  WorkerStore,
} from "./ports/worker-store.port";
export {
  RolloutEngine,
  type StageFinishedEvent,
} from "./rollout-engine";
export type { BackendEngineCounters, BackendReportedCounters } from "./routing/backend-stats";
export type {
  BackendSnapshot,
  StickyRouterOptions,
} from "./routing/routing.types";
export { StickyRouter } from "./routing/sticky-router";
export {
  describeSamplingConflicts,
  findSamplingConflicts,
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
export { DeadHostSweeper } from "./sandbox-events/dead-host-sweeper";
export { MemorySandboxEventStore } from "./sandbox-events/memory-sandbox-event-store";
export { SandboxEventRecorder } from "./sandbox-events/sandbox-event-recorder";
export {
  foldSandboxEvents,
  hostClosureEvents,
  OPEN_SANDBOX_STATES,
  sandboxSummaryOf,
} from "./sandbox-events/sandbox-record-fold";
export {
  FairGrantQueue,
  type Grant,
  type GrantFlowSnapshot,
} from "./scheduling/fair-grant-queue";
export {
  DEFAULT_PLACEMENT_MAX_WAIT_MS,
  isPlacedWell,
} from "./scheduling/image-placement";
export { runShareMetadata } from "./scheduling/job-flow";
export { asStageFailure } from "./stage-failure";
export { isNetworkError } from "./store-health/network-error";
export { StoreHealth, type StoreHealthState } from "./store-health/store-health";
export { sleep } from "./util/abort";
export { imagePrefetchStatus } from "./workers/image-prefetch-status";
export { ImagePrefetcher } from "./workers/image-prefetcher";

export { workerCapacity } from "./workers/worker-capacity";
export { DEFAULT_HEARTBEAT_INTERVAL_MS } from "./workers/worker-defaults";
export { WorkerHeartbeat } from "./workers/worker-heartbeat";
export { WorkerMonitor } from "./workers/worker-monitor";
