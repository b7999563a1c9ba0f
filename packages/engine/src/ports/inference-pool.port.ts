/** Sampling parameters of one generation. */
export interface SamplingParams {
  maxTokens: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  seed?: number;
  stopTokenIds?: number[];
}

export interface GenerateRequest {
  /** The job the turn belongs to; used for sticky routing (prefix-cache reuse). */
  jobId: string;
  promptIds: readonly number[];
  sampling: SamplingParams;
  signal?: AbortSignal;
  /** Absolute deadline (epoch ms) for this call. */
  deadlineMs?: number;
}

export interface GenerateResult {
  responseIds: number[];
  logprobs: number[];
  finishReason: string | null;
  backendId: string;
  weightVersion: string | null;
  cachedPromptTokens: number;
  latencyMs: number;
}

/** Routes generations to inference backends (vLLM, SGLang, NeMo-RL, simulator). */
export interface InferencePool {
  generate(request: GenerateRequest): Promise<GenerateResult>;
  /** The job is done: forget its sticky backend. */
  releaseJob(jobId: string): void;
}
