import { type ComposedEngine, composeBackends, recordSandboxEvents } from "@raas/compose";
import { fanOutPolicy, followPolicy } from "@raas/training";
import type { WorkerConfig } from "../worker-config";
import type { WorkerFollowers, WorkerHost } from "./worker-parts.types";

/** How often a worker re-applies the stored policy state (weight version, pause), in ms. */
const POLICY_RELOAD_INTERVAL_MS = 5_000;

/** What the worker follows from the store and the bus: the policy, sandbox events, backends. */
export async function followWorkerState(
  config: WorkerConfig,
  host: WorkerHost,
  composed: ComposedEngine,
): Promise<WorkerFollowers> {
  const policy = await followWorkerPolicy(host, composed);
  // Removes the sandbox directories of dead hosts from the base directory (shared by the workers
  // of a node, or by nodes); the server closes their records.
  const sandboxEvents = recordSandboxEvents(host.sandboxRuntime, composed.sandboxEvents, {
    hostId: host.workerId,
    logger: host.logger.child({ component: "sandbox-events" }),
    workers: composed.workers,
    ...(composed.bus && { bus: composed.bus }),
  });
  // Backends registered, drained or removed through the API reach this pool: what is stored now
  // (before the first job), then each change (bus, and every heartbeat interval).
  const backends = await composeBackends({
    registry: host.inference.pool,
    shared: {
      store: composed.backendRegistrations,
      bus: composed.bus,
      ...(config.heartbeatIntervalMs !== undefined && { syncIntervalMs: config.heartbeatIntervalMs }),
    },
    logger: host.logger.child({ component: "backends" }),
  });
  return { policy, sandboxEvents, backends };
}

/**
 * Weight syncs reach this worker's own inference pool: the stored policy state at start (and
 * every few seconds, making up for a lost bus message), then each change from the bus.
 */
function followWorkerPolicy(host: WorkerHost, composed: ComposedEngine): Promise<WorkerFollowers["policy"]> {
  if (!composed.bus) return Promise.resolve(null);
  return followPolicy({
    bus: composed.bus,
    // The pool gates generation; the engine holds RUN budgets while paused.
    sink: fanOutPolicy(host.inference.pool, composed.engine),
    load: () => composed.batches.listPolicyStates(),
    reloadIntervalMs: POLICY_RELOAD_INTERVAL_MS,
    onError: (error) => host.logger.warn({ err: error }, "applying the policy state failed"),
  });
}
