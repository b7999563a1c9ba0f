import type { TFailureKind } from "@raas/shared";

/**
 * Thrown by handlers (and adapters) to fail a stage with a specific kind. `agent` marks the
 * policy's own fault and keeps the trajectory trainable; every other kind is infrastructure.
 */
export class StageFailure extends Error {
  override readonly name = "StageFailure";
  readonly kind: Exclude<TFailureKind, "cancelled" | "timeout">;

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
