import type { TFailureKind } from "@raas/shared";

/**
 * Thrown by handlers (and adapters) to fail a stage with a specific kind. Who caused the failure
 * decides it: `agent` marks what the policy did — a bad tool call, context overflow, killing its
 * tools or the execution server, hitting a resource limit (processes, memory, CPU, disk, output,
 * the sandbox's wall time), a crash of the sandbox during its own tool call. An `agent` failure
 * is trainable and stored with the handler's `failureReward` (default 0) and this message as the
 * reason. Every other kind is infrastructure (sandbox creation, an unreachable backend, a host
 * error, a grader failing on a clean input, a sandbox dying while idle or during a handler's own
 * step): never trainable, reward null. `timeout` is for a handler's own step that ran out of its
 * time limit before the policy ran (a checkout or setup command in INIT): like a stage budget
 * running out, a slow host can cause it. See ARCHITECTURE.md, "Failure kinds".
 */
export class StageFailure extends Error {
  override readonly name = "StageFailure";
  readonly kind: Exclude<TFailureKind, "cancelled">;

  constructor(kind: StageFailure["kind"], message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
  }
}

export function isStageFailure(error: unknown): error is StageFailure {
  return error instanceof StageFailure;
}

/**
 * Runs `work` so that its errors carry a failure kind: an abort rethrows the signal's reason (so
 * cancel and timeout classify as such), a `StageFailure` passes through, anything else becomes a
 * `StageFailure(kind, "<what>: <message>")`.
 */
export async function asStageFailure<T>(
  kind: StageFailure["kind"],
  what: string,
  signal: AbortSignal,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (isStageFailure(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StageFailure(kind, `${what}: ${reason}`, { cause: error });
  }
}
