import { type InferenceFailure, inferenceFailure } from "../inference-failure";

/**
 * How long a turn rides out an outage of every backend it could use (connection refused or reset,
 * 502/503/504 while a server restarts) before it fails as `inference`, in ms. The one default;
 * servers override it (`RAAS_INFERENCE_OUTAGE_BUDGET_MS`).
 */
export const DEFAULT_OUTAGE_BUDGET_MS = 60_000;

/** Longest single wait between two tries while no backend can take the turn, in ms. */
const MAX_WAIT_MS = 1_000;

/** The n-th wait (from 0): `firstWaitMs` doubling up to one second. */
export function outageWaitMs(firstWaitMs: number, waitIndex: number): number {
  return Math.min(MAX_WAIT_MS, firstWaitMs * 2 ** Math.min(waitIndex, 16));
}

/**
 * Waits `delayMs`, ending early at the deadline. Cancellation ends the wait at once with an
 * `aborted` failure; reaching the deadline is a `deadline` failure.
 */
export function waitOutOutage(
  delayMs: number,
  context: { jobId: string; signal: AbortSignal | undefined; deadlineMs: number; now: () => number },
): Promise<void> {
  const { signal, jobId } = context;
  const aborted = () => inferenceFailure("aborted", `generation for job ${jobId} aborted`);
  if (signal?.aborted) return Promise.reject(aborted());
  const untilDeadlineMs = context.deadlineMs - context.now();
  if (untilDeadlineMs <= 0) {
    return Promise.reject(
      inferenceFailure("deadline", `deadline passed while job ${jobId} waited for a backend`),
    );
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.min(delayMs, untilDeadlineMs),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The failure a turn ends with once the outage budget is spent: the last one, saying so. */
export function outageExhausted(
  last: InferenceFailure,
  outageMs: number,
  budgetMs: number,
): InferenceFailure {
  const { reason, backendId, status } = last.failure.inference;
  return inferenceFailure(
    reason,
    `${last.message} — no backend answered for ${(outageMs / 1000).toFixed(1)} s (outage budget ${budgetMs} ms)`,
    { backendId, status, cause: last },
  );
}
