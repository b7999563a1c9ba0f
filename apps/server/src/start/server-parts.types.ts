import type { ControlPlaneHandler } from "@raas/api";
import type {
  ComposedAgentHandlers,
  ComposedBackends,
  ComposedBatches,
  ComposedEngine,
  ComposedGateway,
  ComposedInference,
  ComposedWorkers,
  composeImageCache,
  SandboxEventRecording,
} from "@raas/compose";
import type { SandboxRuntime } from "@raas/engine";
import type { ModelFamilyAdapter } from "@raas/inference";
import type { Logger } from "pino";

/** What exists before the engine starts: inference, gateway, sandboxes, handlers, the engine. */
export interface ServerCore {
  logger: Logger;
  /** This process's worker id and the host id of its sandbox events. */
  hostId: string;
  inference: ComposedInference;
  /** The policy model's family: the gateway, the agent handlers and `tokens.decode` share it. */
  family: ModelFamilyAdapter;
  gateway: ComposedGateway;
  sandboxRuntime: SandboxRuntime;
  /** Where its bubblewrap sandboxes unpack images (reported with its heartbeats); undefined for the other runtimes. */
  imageCache: ReturnType<typeof composeImageCache>;
  agentHandlers: ComposedAgentHandlers;
  composed: ComposedEngine;
  /** The URL the harness gateway bridge hands to sandboxes, known once the server listens. */
  setServerUrl(url: string): void;
}

/** What runs beside the started engine: sandbox-event recording, workers, backends, batches. */
export interface ServerSystems {
  sandboxEvents: SandboxEventRecording;
  workers: ComposedWorkers;
  backends: ComposedBackends;
  batches: ComposedBatches;
}

/** Everything `close` winds down, in its order. */
export interface ServerParts {
  core: ServerCore;
  systems: ServerSystems;
  handler: ControlPlaneHandler;
}
