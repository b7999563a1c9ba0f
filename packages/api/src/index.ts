export type { ControlPlaneAuthOptions } from "./auth/auth.types";

export type { ControlPlaneBackends } from "./backends.port";

export type { BenchmarkRunStore } from "./benchmarks.port";

export type { ControlPlaneEngine } from "./engine.port";

export { createControlPlaneHandler } from "./http/control-plane-handler";
export type { ControlPlaneHandler, ControlPlaneHandlerOptions } from "./http/control-plane-handler.types";
export { createGatewayHandler } from "./http/gateway-handler";

export type { ApiLogger } from "./logger.types";
export { ControlPlaneMetrics } from "./metrics/control-plane-metrics";

export { findDocumentGaps } from "./openapi/find-document-gaps";

export type { AppRouter } from "./root";

export type { TWorkerView } from "./routers/workers/worker.schema";
export type { ControlPlaneSandboxes } from "./sandbox.port";
export type { ControlPlaneStoreHealth } from "./store-health.port";
export type { TokenTextDecoder } from "./tokens.port";

export type { WorkerStore } from "./workers.port";
