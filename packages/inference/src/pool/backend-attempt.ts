import type { GenerateRequest, InferenceRouter } from "@raas/engine";
import type { InferenceBackend } from "../backends/inference-backend.types";
import {
  type InferenceFailure,
  inferenceFailure,
  isInferenceFailure,
  isRetryable,
} from "../inference-failure";
import type { GenerationPiece } from "./continued-generation";
import { outageExhausted } from "./outage-wait";
import type { PolicyGate } from "./policy-gate";

/** What one turn's dispatch went through so far: gate holds, the outage it rides out, failovers. */
export interface DispatchState {
  deadlineMs: number;
  pausedMs: number;
  /** Since when no backend could take the turn; null while there is no outage. */
  outageSinceMs: number | null;
  lastFailure: InferenceFailure | null;
  /** Backends that just failed this turn: tried again only when no other one can take it. */
  excluded: Set<string>;
  /** Waits for a backend so far (the backoff doubles with each). */
  waits: number;
}

/** The whole generation, or its tokens up to an interrupt. */
export interface DispatchResult {
  piece: GenerationPiece;
  isInterrupted: boolean;
  pausedMs: number;
}

/** Held at the gate: neither the deadline nor the outage budget runs meanwhile. */
export function holdAtGate(state: DispatchState, heldMs: number): void {
  state.pausedMs += heldMs;
  state.deadlineMs += heldMs;
  if (state.outageSinceMs !== null) state.outageSinceMs += heldMs;
}

/**
 * Sends the turn to one backend and reports the outcome to the router (an interrupt we caused
 * says nothing about the backend). Returns null after a retryable failure — the backend excluded
 * for this turn, the outage clock started — and throws any other failure, one after tokens were
 * handed over, or one past the outage budget.
 */
export async function attemptBackend(input: {
  router: InferenceRouter;
  now: () => number;
  backend: InferenceBackend;
  /** The version the request starts under: what its tokens were sampled with. */
  weightVersion: string | null;
  request: GenerateRequest;
  gate: PolicyGate;
  state: DispatchState;
  budgetMs: number;
}): Promise<DispatchResult | null> {
  const { router, now, backend, request, state } = input;
  const startedAt = now();
  const interrupt = input.gate.track();
  const { onTokens } = request;
  let handedOverIds = 0;
  try {
    const generation = await backend.generate({
      promptIds: request.promptIds,
      sampling: request.sampling,
      signal: request.signal,
      // Interruptible (a token stream) only where a weight sync can interrupt it.
      ...(input.gate.mayInterrupt && { interrupt: interrupt.signal }),
      deadlineMs: state.deadlineMs,
      ...(onTokens && {
        onTokens: (ids: readonly number[], logprobs: readonly number[]) => {
          handedOverIds += ids.length;
          onTokens(ids, logprobs);
        },
      }),
    });
    const latencyMs = now() - startedAt;
    const isInterrupted = generation.isInterrupted === true;
    router.release(
      backend.id,
      // An interrupted request was stopped by us: it says nothing about the backend.
      isInterrupted
        ? { type: "aborted" }
        : {
            type: "success",
            promptTokens: request.promptIds.length,
            cachedPromptTokens: generation.cachedPromptTokens,
            responseTokens: generation.responseIds.length,
            latencyMs,
          },
      now(),
    );
    return {
      piece: {
        responseIds: generation.responseIds,
        logprobs: generation.logprobs,
        ...(generation.topLogprobs && { topLogprobs: generation.topLogprobs }),
        finishReason: generation.finishReason,
        backendId: backend.id,
        weightVersion: input.weightVersion,
        cachedPromptTokens: generation.cachedPromptTokens,
        latencyMs,
      },
      isInterrupted,
      pausedMs: state.pausedMs,
    };
  } catch (error) {
    const failure = isInferenceFailure(error)
      ? error
      : inferenceFailure("bad-response", `${backend.id}: ${String(error)}`, {
          backendId: backend.id,
          cause: error,
        });
    router.release(backend.id, { type: outcomeTypeOf(failure) }, now());
    // Ids already handed over cannot be taken back: a retry from scratch would contradict them.
    if (!isRetryable(failure.failure.inference) || handedOverIds > 0) throw failure;
    state.lastFailure = failure;
    state.outageSinceMs ??= startedAt;
    const outageMs = now() - state.outageSinceMs;
    if (outageMs >= input.budgetMs) throw outageExhausted(failure, outageMs, input.budgetMs);
    state.excluded.add(backend.id);
    return null;
  } finally {
    interrupt.done();
  }
}

/** How a failure counts for the router: caller aborts and 4xx rejections say nothing about health. */
function outcomeTypeOf(failure: InferenceFailure): "failure" | "rejected" | "aborted" {
  const { reason, status } = failure.failure.inference;
  if (reason === "aborted") return "aborted";
  const isClientError = status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
  return isClientError ? "rejected" : "failure";
}
