import type { RolloutEngine } from "@raas/engine";
import { STAGES } from "@raas/shared";

const POLL_MS = 100;

/** No stage runs here and no sandbox is held for a job between its stages. */
function isIdle(engine: RolloutEngine): boolean {
  const { stages } = engine.stats();
  return engine.heldSandboxes === 0 && STAGES.every((stage) => stages[stage].active === 0);
}

/**
 * Resolves true once `engine` holds no work, false when `timeoutMs` passed first or `isAborted`
 * turned true (a second signal).
 */
export async function waitUntilIdle(
  engine: RolloutEngine,
  timeoutMs: number,
  isAborted: () => boolean,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!isIdle(engine)) {
    if (isAborted() || Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}
