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
