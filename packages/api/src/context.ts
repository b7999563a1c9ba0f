import type { ControlPlaneArchive } from "./archive.port";
import type { Principal } from "./auth/auth.types";
import type { ControlPlaneBackends } from "./backends.port";
import type { ControlPlaneBatches, ControlPlanePolicy } from "./batches.port";
import type { BenchmarkRunStore } from "./benchmarks.port";
import type { ControlPlaneEngine } from "./engine.port";
import type { ControlPlaneEnvironments } from "./environments.port";
import type { ControlPlaneGateway } from "./gateway.port";
import type { ApiLogger } from "./logger.types";
import type { ControlPlaneSandboxes } from "./sandbox.port";
import type { ControlPlaneStoreHealth } from "./store-health.port";
import type { TokenTextDecoder } from "./tokens.port";
import type { WorkerStore } from "./workers.port";

/** Per-request context of every procedure. */
export interface ControlPlaneContext {
  engine: ControlPlaneEngine;
  principal: Principal;
  /** Copied from the auth options: whether reads need a token. */
  requireViewerToken: boolean;
  /** False when no admin or trainer token is configured: mutations are then refused. */
  hasWriterToken: boolean;
  logger: ApiLogger;
  /** The inference backend registry; null when the server runs without an inference pool. */
  backends: ControlPlaneBackends | null;
  /** The benchmark-run store; null when the server runs without one (`benchmarks.*` answer 503). */
  benchmarks: BenchmarkRunStore | null;
  /** The environment registry; absent or null when the server runs without one (`environments.*` answer 503). */
  environments?: ControlPlaneEnvironments | null;
  /** The agent sandboxes' runtime, for `system.health`; null when the server runs without one. */
  sandboxes: ControlPlaneSandboxes | null;
  /** The worker registry; null when the server runs without one (`workers.*` answer 503). */
  workers: WorkerStore | null;
  /** Training runs, steps and groups; null when the server runs no batch system (`runs.*`, `steps.*`, `datasets.*` answer 503). */
  batches: ControlPlaneBatches | null;
  /** The policy's weight version and pause; null when the server runs no policy control (`policy.*` answer 503). */
  policy: ControlPlanePolicy | null;
  /** The inference gateway, for `jobs.gatewayTraces`; absent or null when the server runs none (503). */
  gateway?: ControlPlaneGateway | null;
  /** Retention of finished runs' trajectories; null when the server has no database store (`runs.archive` answers 503). */
  archive?: ControlPlaneArchive | null;
  /** Token ids → text for `tokens.decode`; null when the server has no tokenizer (it answers 503). */
  tokenText: TokenTextDecoder | null;
  /** This process's store health, for `system.health`; absent or null when not tracked (reported as null). */
  storeHealth?: ControlPlaneStoreHealth | null;
}
