import type { TJob } from "@raas/shared";
import type { BatchEngine } from "./batch-system.types";
import type { JobEnd } from "./step-progress";

/**
 * What a step needs to know of a member's terminal job: status, reward, failure, and the work it
 * cost (stage time, tokens the model sampled for it, read from its stored turns).
 */
export async function readJobEnd(engine: Pick<BatchEngine, "getTrajectory">, job: TJob): Promise<JobEnd> {
  const { timings } = job;
  let generatedTokens = 0;
  try {
    const { turns } = await engine.getTrajectory(job.id);
    for (const turn of turns) generatedTokens += turn.responseIds.length;
  } catch {
    // A job without a stored trajectory generated nothing we can count.
  }
  return {
    jobId: job.id,
    status: job.status as JobEnd["status"],
    reward: job.reward,
    trainable: job.trainable,
    failureKind: job.failure?.kind ?? null,
    failureLabel: job.failure?.label ?? null,
    failureStage: job.failure?.stage ?? null,
    failureMessage: job.failure?.message ?? null,
    verifierCrashed: reportsVerifierCrash(job.result),
    rolloutMs: (timings.initMs ?? 0) + (timings.runMs ?? 0) + (timings.evalMs ?? 0),
    generatedTokens,
  };
}

/**
 * Whether a job's result reports a verifier that gave no score of its own: `verifier.crashed` is
 * true (the `reward-fn` kind's report; a failed job's result is its failure's report).
 */
function reportsVerifierCrash(result: unknown): boolean {
  if (typeof result !== "object" || result === null) return false;
  const verifier = (result as { verifier?: unknown }).verifier;
  return (
    typeof verifier === "object" && verifier !== null && (verifier as { crashed?: unknown }).crashed === true
  );
}
