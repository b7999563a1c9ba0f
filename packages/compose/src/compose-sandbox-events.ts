import { hostname } from "node:os";
import {
  DeadHostSweeper,
  type EngineLogger,
  type EventBus,
  SandboxEventRecorder,
  type SandboxEventStore,
  type SandboxRuntime,
  type WorkerStore,
} from "@raas/engine";

export interface SandboxEventRecording {
  recorder: SandboxEventRecorder;
  /** Cleans up after dead hosts (`DeadHostSweeper`); null without a worker store. */
  sweeper: DeadHostSweeper | null;
  /**
   * Stops listening, writes what is buffered and closes any record of this host still open (as
   * `worker_stopped`: no sandbox of this process runs any more). Call after the runtime closed
   * its sandboxes.
   */
  close(): Promise<void>;
}

export interface RecordSandboxEventsOptions {
  hostId: string;
  logger: EngineLogger;
  /**
   * Where hosts are known live, lost or stopped: with it, this process removes the sandbox
   * directories of dead hosts from its base directory (every interval and when a worker is
   * announced lost on `bus`). Default none.
   */
  workers?: WorkerStore;
  bus?: EventBus;
  /**
   * Also close the sandbox records dead hosts left open (`worker_lost`, `worker_stopped`): the
   * process that watches workers (the server) does. Default false.
   */
  closeDeadHostRecords?: boolean;
  /** Time between sweeps after dead hosts, in ms. Default the engine's (30_000). */
  sweepIntervalMs?: number;
}

/** This process as a sandbox host: `<hostname>:<pid>`, so two servers on one node stay apart. */
export function defaultSandboxHostId(): string {
  return `${hostname()}:${process.pid}`;
}

/**
 * Stores every lifecycle event of the runtime's sandboxes (created, ready, limit_hit, crashed,
 * closed, …) with this host's id, in batches off the rollout's path (`SandboxEventRecorder`).
 */
export function recordSandboxEvents(
  runtime: SandboxRuntime,
  store: SandboxEventStore,
  options: RecordSandboxEventsOptions,
): SandboxEventRecording {
  const recorder = new SandboxEventRecorder({
    store,
    hostId: options.hostId,
    runtime: runtime.name,
    logger: options.logger,
  });
  const unsubscribe = runtime.onEvent((event) => recorder.record(event));
  const sweeper = options.workers
    ? new DeadHostSweeper({
        workers: options.workers,
        selfHostId: options.hostId,
        runtime,
        ...(options.closeDeadHostRecords && { records: store }),
        ...(options.bus && { bus: options.bus }),
        ...(options.sweepIntervalMs !== undefined && { intervalMs: options.sweepIntervalMs }),
        logger: options.logger,
      })
    : null;
  const starting = sweeper
    ?.start()
    .catch((error: unknown) =>
      options.logger.warn({ err: error }, "sweeping after dead hosts did not start"),
    );
  let closing: Promise<void> | null = null;
  return {
    recorder,
    sweeper,
    close() {
      closing ??= (async () => {
        await starting;
        await sweeper?.stop();
        unsubscribe();
        await recorder.close();
        const { dropped, failedFlushes } = recorder.stats;
        if (dropped > 0 || failedFlushes > 0) {
          options.logger.warn({ ...recorder.stats }, "some sandbox events could not be stored");
        }
        // A closed event that was dropped or never written would leave a record open for good.
        await store
          .closeHostSandboxes(options.hostId, { reason: "worker_stopped", state: "closed", atMs: Date.now() })
          .then((ids) => {
            if (ids.length > 0) {
              options.logger.warn({ sandboxes: ids.length }, "closed sandbox records this host left open");
            }
          })
          .catch((error: unknown) =>
            options.logger.warn({ err: error }, "could not close the sandbox records this host left open"),
          );
      })();
      return closing;
    },
  };
}
