import { failureOf, isStageFailureData, stageFailure, type TStageFailureKind } from "@raas/shared";

/**
 * Runs `work` so that its errors carry a stage failure kind: an abort rethrows the signal's reason
 * (so cancel and timeout classify as such), an error carrying a stage failure passes through,
 * anything else becomes `stageFailure(kind, "<what>: <message>")`. See ARCHITECTURE.md, "Failure
 * kinds", for who is blamed for which kind.
 */
export async function asStageFailure<T>(
  kind: TStageFailureKind,
  what: string,
  signal: AbortSignal,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (isStageFailureData(failureOf(error))) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw stageFailure(kind, `${what}: ${reason}`, { cause: error });
  }
}
