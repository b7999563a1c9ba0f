import type { TSamplingParams } from "@raas/shared";
import type { SamplingParams } from "../ports/inference-pool.port";

/** Temperature every backend codec sends when a generation names none. */
export const DEFAULT_TEMPERATURE = 1;
/** Nucleus mass every backend codec sends when a generation names none (1: no nucleus cut). */
export const DEFAULT_TOP_P = 1;
/**
 * Top-k every backend codec sends when a generation names none (-1: no top-k cut). Sent, not left
 * out: a server left to its own defaults applies the model's generation config (Qwen3's says
 * top_k 20), and the logprobs would come from a distribution the trainer never chose.
 */
export const DEFAULT_TOP_K = -1;
/** min-p the vLLM and SGLang codecs always send (0: no cut), for the same reason. Not settable. */
export const DEFAULT_MIN_P = 0;

/** The job's sampling settings: what `SamplingParams` holds besides the per-call limits. */
export type JobSampling = Omit<SamplingParams, "maxTokens" | "stopTokenIds">;

/**
 * The sampling parameters of a generation as the backend is sent them (the codecs' defaults filled
 * in), for the turn or gateway call that records it.
 */
export function describeSampling(sampling: SamplingParams): TSamplingParams {
  return {
    temperature: sampling.temperature ?? DEFAULT_TEMPERATURE,
    topP: sampling.topP ?? DEFAULT_TOP_P,
    topK: sampling.topK ?? DEFAULT_TOP_K,
    seed: sampling.seed ?? null,
    maxTokens: sampling.maxTokens,
  };
}
