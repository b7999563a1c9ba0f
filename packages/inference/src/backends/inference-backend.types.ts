import type { SamplingParams } from "@raas/engine";

export const BACKEND_KINDS = ["vllm", "sglang", "nemo-rl"] as const;
/** Wire protocol of a backend: vLLM `/v1/completions`, SGLang `/generate`, NeMo-RL `/generate`. */
export type BackendKind = (typeof BACKEND_KINDS)[number];

export interface BackendGenerateRequest {
  promptIds: readonly number[];
  sampling: SamplingParams;
  signal?: AbortSignal;
  /** Absolute deadline, epoch ms. */
  deadlineMs?: number;
}

/** What every backend returns, whatever its wire format. */
export interface BackendGeneration {
  responseIds: number[];
  /** One logprob per response token. */
  logprobs: number[];
  finishReason: string | null;
  /** Prompt tokens served from the prefix cache; null when the backend does not say. */
  cachedPromptTokens: number | null;
}

/** Request body and response parsing of one wire protocol; pure, tested against recorded responses. */
export interface BackendCodec {
  kind: BackendKind;
  path: string;
  buildRequest(request: BackendGenerateRequest, model: string): unknown;
  parseResponse(body: unknown, backendId: string | null): BackendGeneration;
}

/** One inference server speaking token ids. */
export interface InferenceBackend {
  readonly id: string;
  readonly kind: BackendKind;
  readonly baseUrl: string;
  generate(request: BackendGenerateRequest): Promise<BackendGeneration>;
  /** True when the server answers its health endpoint with 2xx within the timeout. */
  checkHealth(timeoutMs: number): Promise<boolean>;
  /** Prefix-cache counters from the server's `/metrics`, or null when it exposes none. */
  readPrefixCacheCounters(
    timeoutMs: number,
  ): Promise<{ prefixCacheQueries: number; prefixCacheHits: number } | null>;
}
