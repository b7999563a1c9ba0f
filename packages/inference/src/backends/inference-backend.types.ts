import type { BackendReportedCounters, SamplingParams, TopLogprob } from "@raas/engine";

export const BACKEND_KINDS = ["vllm", "sglang", "nemo-rl"] as const;
/** Wire protocol of a backend: vLLM `/v1/completions`, SGLang `/generate`, NeMo-RL `/generate`. */
export type BackendKind = (typeof BACKEND_KINDS)[number];

export interface BackendGenerateRequest {
  promptIds: readonly number[];
  sampling: SamplingParams;
  signal?: AbortSignal;
  /**
   * Stops the generation early and resolves with the tokens generated so far (`isInterrupted`),
   * for an `abort-and-continue` weight sync. Backends that cannot hand partial tokens over
   * (non-streaming wire formats) ignore it and finish normally.
   */
  interrupt?: AbortSignal;
  /** Absolute deadline, epoch ms. */
  deadlineMs?: number;
  /** Sampled ids (with their logprobs) as they arrive; see `GenerateRequest.onTokens`. */
  onTokens?: (ids: readonly number[], logprobs: readonly number[]) => void;
}

/** What every backend returns, whatever its wire format. */
export interface BackendGeneration {
  responseIds: number[];
  /** One logprob per response token. */
  logprobs: number[];
  finishReason: string | null;
  /** Prompt tokens served from the prefix cache; null when the backend does not say (never 0 for unknown). */
  cachedPromptTokens: number | null;
  /** True when `interrupt` stopped it before it finished: the tokens so far, `finishReason` null. */
  isInterrupted?: boolean;
  /**
   * Per response token, the most likely alternatives (most likely first), present only when
   * `sampling.topLogprobs` asked for them.
   */
  topLogprobs?: TopLogprob[][];
}

/**
 * The streaming form of a wire protocol: a request body asking for a token stream and a reader
 * that collects its events, so that a stopped generation still hands over the tokens it made.
 */
interface StreamingCodec {
  buildRequest(request: BackendGenerateRequest, model: string): unknown;
  createReader(backendId: string | null, request: BackendGenerateRequest): StreamReader;
}

export interface StreamReader {
  /**
   * One event's `data` (JSON text); returns the ids (and logprobs) it added. Throws a
   * `bad-response` failure on a malformed event.
   */
  push(data: string): { ids: readonly number[]; logprobs: readonly number[] };
  /** The generation so far; throws when a stream that was not interrupted ended unfinished. */
  finish(outcome: { isInterrupted: boolean }): BackendGeneration;
}

/** Request body and response parsing of one wire protocol; pure, tested against recorded responses. */
export interface BackendCodec {
  kind: BackendKind;
  path: string;
  buildRequest(request: BackendGenerateRequest, model: string): unknown;
  /** Present when the protocol can stream token ids (vLLM); used when the backend streams. */
  streaming?: StreamingCodec;
  /** `request` is the call the body answers (what a wire format leaves out may follow from it). */
  parseResponse(body: unknown, backendId: string | null, request?: BackendGenerateRequest): BackendGeneration;
}

/** Scoring a token sequence (a teacher's `prompt_logprobs`). */
export interface BackendScoreRequest {
  promptIds: readonly number[];
  signal?: AbortSignal;
  /** Absolute deadline, epoch ms. */
  deadlineMs?: number;
}

/** One inference server speaking token ids. */
export interface InferenceBackend {
  readonly id: string;
  readonly kind: BackendKind;
  readonly baseUrl: string;
  generate(request: BackendGenerateRequest): Promise<BackendGeneration>;
  /**
   * The logprob of each prompt id given the ids before it (null for the first). Absent, or
   * throwing, on a kind that cannot score prompts (NeMo-RL `/generate`).
   */
  scorePrompt?(request: BackendScoreRequest): Promise<(number | null)[]>;
  /** True when `generate` honours `interrupt` (hands over partial tokens); false behaves as `wait`. */
  readonly canInterrupt?: boolean;
  /** True when the server answers its health endpoint with 2xx within the timeout. */
  checkHealth(timeoutMs: number): Promise<boolean>;
  /**
   * The server's own figures from its `/metrics` (prefix-cache counters, KV-cache usage, per
   * data-parallel engine), or null when it exposes no prefix-cache counters.
   */
  readReportedCounters(timeoutMs: number): Promise<BackendReportedCounters | null>;
}
