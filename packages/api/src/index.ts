export { formatIssues } from "@raas/shared";
export type { ArchiveRunOutcome, ControlPlaneArchive } from "./archive.port";
export type { ControlPlaneAuthOptions, Principal, TRole } from "./auth/auth.types";
export { ROLES, roleSatisfies } from "./auth/auth.types";
export type {
  BackendRegistration,
  BackendView,
  ControlPlaneBackends,
  InferenceBackendRegistry,
} from "./backends.port";
export type { ControlPlaneBatches, ControlPlanePolicy, NextGroupsResult, TaskCatalog } from "./batches.port";
export type {
  BenchmarkResultRecord,
  BenchmarkRunFilter,
  BenchmarkRunRecord,
  BenchmarkRunStore,
} from "./benchmarks.port";
export type { ControlPlaneContext } from "./context";
export type { ApiJobEvent, ControlPlaneEngine, StageFinishedEvent } from "./engine.port";
export { toRaasError } from "./errors/to-raas-error";
export type { ControlPlaneGateway } from "./gateway.port";
export { createControlPlaneHandler } from "./http/control-plane-handler";
export type { ControlPlaneHandler, ControlPlaneHandlerOptions } from "./http/control-plane-handler.types";
export {
  createGatewayHandler,
  type GatewayHandler,
  type GatewayHandlerOptions,
} from "./http/gateway-handler";
export { GATEWAY_PATH, matchGatewayPath } from "./http/gateway-http";
export {
  DEFAULT_GATEWAY_SESSION_LIMITS,
  GatewaySessionLimiter,
  type GatewaySessionLimits,
} from "./http/gateway-session-limiter";
export { STEP_STREAM_HEARTBEAT_MS, STEP_STREAM_PATH } from "./http/step-stream";
export type { ApiLogger } from "./logger.types";
export { ControlPlaneMetrics } from "./metrics/control-plane-metrics";
export { type GatewayRefusalCounts, registerGatewayRefusalMetrics } from "./metrics/gateway-refusal-metrics";
export { findDocumentGaps } from "./openapi/find-document-gaps";
export { buildOpenApiDocument, type OpenApiDocumentOptions } from "./openapi/openapi-document";
export type { OpenApiRouteMeta, ProcedureMeta } from "./openapi/openapi-meta.types";
export { REST_ROUTES } from "./rest/rest-routes";
export { type AppRouter, appRouter, createCaller } from "./root";
export { BACKEND_KINDS, type TBackendView, ZBackendView } from "./routers/backends/backend.schema";
export {
  BENCHMARK_RUN_STATUSES,
  type TBenchmarkResultView,
  type TBenchmarkRunView,
  ZBenchmarkResultView,
  ZBenchmarkRunView,
} from "./routers/benchmarks/benchmark.schema";
export { MAX_RESULTS_PER_CALL } from "./routers/benchmarks/record-results";
export { type TDatasetView, ZDatasetView } from "./routers/datasets/list";
export { type TStepGroupEvent, ZStepGroupEvent } from "./routers/steps/on-groups";
export { MAX_GROUPS_PER_CALL, MAX_STEP_WAIT_MS } from "./routers/steps/step.schema";
export { type TSandboxLimitsInForce, ZSandboxLimitsInForce } from "./routers/system/sandbox-limits.schema";
export { type TWorkerView, WORKER_STATUSES, ZWorkerView } from "./routers/workers/worker.schema";
export type { ControlPlaneSandboxes, SandboxLimitsInForce } from "./sandbox.port";
export type { ControlPlaneStoreHealth } from "./store-health.port";
export type { TokenTextDecoder } from "./tokens.port";
export type { ControlPlaneErrorData } from "./trpc";
export type { WorkerRecord, WorkerStore } from "./workers.port";
