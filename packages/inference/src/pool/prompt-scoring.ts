import type { InferenceRouter, ScorePromptRequest, ScorePromptResult } from "@raas/engine";
import type { InferenceBackend } from "../backends/inference-backend.types";
import {
  type InferenceFailure,
  inferenceFailure,
  isInferenceFailure,
  isRetryable,
} from "../inference-failure";

interface ScoringDeps {
  router: InferenceRouter;
  now: () => number;
  backendOf(backendId: string): InferenceBackend | undefined;
  /** Deadline of a request that carries none, in ms from the call. */
  defaultTimeoutMs: number;
}

/**
 * Scores a sequence on the teacher a job names. A backend named by id is called directly; a
 * teacher policy's backends are chosen by the router (in-flight counted, health reported) under
 * a routing key of the teacher's own, so the job's sticky generation backend is left alone. An
 * outage of one backend fails over to the policy's next; anything else is thrown as it came.
 */
export async function scorePromptOnTeacher(
  deps: ScoringDeps,
  request: ScorePromptRequest,
): Promise<ScorePromptResult> {
  const deadlineMs = request.deadlineMs ?? deps.now() + deps.defaultTimeoutMs;
  const { teacher } = request;
  if (teacher.backendId !== undefined) {
    const backend = deps.backendOf(teacher.backendId);
    if (!backend) {
      throw inferenceFailure("no-backend", `teacher backend ${teacher.backendId} is not registered`);
    }
    return { logprobs: await callBackend(backend, request, deadlineMs), backendId: backend.id };
  }
  const policyId = teacher.policyId as string;
  const routingKey = `${request.jobId}#teacher`;
  const excluded = new Set<string>();
  let lastFailure: InferenceFailure | null = null;
  try {
    for (;;) {
      const decision = deps.router.acquire(routingKey, deps.now(), { excludeIds: excluded, policyId });
      const backend = decision ? deps.backendOf(decision.backendId) : undefined;
      if (!decision || !backend) {
        if (decision) deps.router.release(decision.backendId, { type: "aborted" }, deps.now());
        throw (
          lastFailure ??
          inferenceFailure("no-backend", `no backend of teacher policy ${policyId} can take the request`)
        );
      }
      const startedAt = deps.now();
      try {
        const logprobs = await callBackend(backend, request, deadlineMs);
        deps.router.release(
          backend.id,
          {
            type: "success",
            promptTokens: request.promptIds.length,
            cachedPromptTokens: null,
            responseTokens: 0,
            latencyMs: deps.now() - startedAt,
          },
          deps.now(),
        );
        return { logprobs, backendId: backend.id };
      } catch (error) {
        const failure = asFailure(error, backend.id);
        const isAborted = failure.failure.inference.reason === "aborted";
        deps.router.release(backend.id, { type: isAborted ? "aborted" : "failure" }, deps.now());
        if (!isRetryable(failure.failure.inference)) throw failure;
        lastFailure = failure;
        excluded.add(backend.id);
      }
    }
  } finally {
    deps.router.releaseJob(routingKey);
  }
}

async function callBackend(
  backend: InferenceBackend,
  request: ScorePromptRequest,
  deadlineMs: number,
): Promise<(number | null)[]> {
  if (!backend.scorePrompt) {
    throw inferenceFailure(
      "bad-response",
      `backend ${backend.id} is ${backend.kind}, which cannot score prompts`,
      {
        backendId: backend.id,
      },
    );
  }
  return backend.scorePrompt({
    promptIds: request.promptIds,
    deadlineMs,
    ...(request.signal && { signal: request.signal }),
  });
}

function asFailure(error: unknown, backendId: string): InferenceFailure {
  if (isInferenceFailure(error)) return error;
  return inferenceFailure("bad-response", `${backendId}: ${String(error)}`, { backendId, cause: error });
}
