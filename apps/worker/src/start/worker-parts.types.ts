import type {
  ComposedAgentHandlers,
  ComposedBackends,
  ComposedEngine,
  ComposedInference,
  ComposedWorkers,
  composeImageCache,
  SandboxEventRecording,
} from "@raas/compose";
import type { SandboxRuntime } from "@raas/engine";
import type { Logger } from "pino";
import type { HealthConditions } from "../health-conditions";
import type { SandboxHealthWatch } from "../sandbox-health-watch";
import type { WorkerGateway } from "../worker-gateway";

/** What the sandbox health watch reports to; bound once the engine and the registration exist. */
export interface SandboxHealthListener {
  suspect(): void;
  sick(reason: string): void;
  recovered(): void;
}

/** The host parts, composed before the engine: inference, sandboxes, gateway, handlers. */
export interface WorkerHost {
  logger: Logger;
  /** This worker's id in the store, and the host id of its sandboxes. */
  workerId: string;
  inference: ComposedInference;
  sandboxRuntime: SandboxRuntime;
  /** Where its bubblewrap sandboxes unpack images; undefined for the other runtimes. */
  imageCache: ReturnType<typeof composeImageCache>;
  conditions: HealthConditions;
  sandboxHealth: SandboxHealthWatch;
  /** Sickness needs a failed job start first, so the listener is bound late. */
  bindSandboxHealth(listener: SandboxHealthListener): void;
  gateway: WorkerGateway;
  agentHandlers: ComposedAgentHandlers;
}

/** What the worker follows from the store and the bus: policy, sandbox events, backends. */
export interface WorkerFollowers {
  policy: { stop(): Promise<void> } | null;
  sandboxEvents: SandboxEventRecording;
  backends: ComposedBackends;
}

/** This worker in the store, with the store condition it reports. */
export interface WorkerRegistration {
  workers: ComposedWorkers;
  unsubscribeStore(): void;
}

/** Everything the close winds down, in its order. */
export interface WorkerParts {
  host: WorkerHost;
  composed: ComposedEngine;
  followers: WorkerFollowers;
  registration: WorkerRegistration;
}
