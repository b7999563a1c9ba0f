import { hostname } from "node:os";
import {
  type EngineLogger,
  SandboxEventRecorder,
  type SandboxEventStore,
  type SandboxRuntime,
} from "@raas/engine";

export interface SandboxEventRecording {
  recorder: SandboxEventRecorder;
  /** Stops listening and writes what is buffered. Call after the runtime closed its sandboxes. */
  close(): Promise<void>;
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
  options: { hostId: string; logger: EngineLogger },
): SandboxEventRecording {
  const recorder = new SandboxEventRecorder({
    store,
    hostId: options.hostId,
    runtime: runtime.name,
    logger: options.logger,
  });
  const unsubscribe = runtime.onEvent((event) => recorder.record(event));
  let closing: Promise<void> | null = null;
  return {
    recorder,
    close() {
      closing ??= (async () => {
        unsubscribe();
        await recorder.close();
        const { dropped, failedFlushes } = recorder.stats;
        if (dropped > 0 || failedFlushes > 0) {
          options.logger.warn({ ...recorder.stats }, "some sandbox events could not be stored");
        }
      })();
      return closing;
    },
  };
}
