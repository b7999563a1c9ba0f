import type { TTeacher } from "@raas/shared";
import type {
  BackendReportedCounters,
  BackendSnapshot,
  RequestOutcome,
  RoutableBackend,
  RouteDecision,
} from "../routing/routing.types";

/** Sampling parameters of one generation. */
export interface SamplingParams {
  maxTokens: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  seed?: number;
  stopTokenIds?: number[];
  /** Alternatives (1..20) to return per sampled token; unset: none asked for (the default). */
  topLogprobs?: number;
}

export interface GenerateRequest {
  /** The job the turn belongs to; used for sticky routing (prefix-cache reuse). */
  jobId: string;
  promptIds: readonly number[];
  sampling: SamplingParams;
  signal?: AbortSignal;
  /** Absolute deadline (epoch ms) for this call. */
  deadlineMs?: number;
  /**
   * Called with each batch of sampled ids (and their logprobs) as they arrive, in order, when the
   * backend streams; a backend that does not stream calls it once with the whole response. A
   * generation continued after an `abort-and-continue` pause goes on appending. Once ids were
   * handed over, a failing request is not retried from scratch (the caller already used them).
   */
  onTokens?: (ids: readonly number[], logprobs: readonly number[]) => void;
}

/** Tokens `[start, end)` of a response (offsets into `responseIds`) sampled under one weight version. */
export interface WeightVersionSpan {
  start: number;
  end: number;
  weightVersion: string | null;
}

/** One alternative at a sampled position: its token id and logprob. */
export interface TopLogprob {
  tokenId: number;
  logprob: number;
}

export interface GenerateResult {
  responseIds: number[];
  logprobs: number[];
  /**
   * Per response token, the most likely alternatives (most likely first; the sampled token is
   * among them, vLLM adding it when outside the top k); only when `sampling.topLogprobs` asked.
   */
  topLogprobs?: TopLogprob[][];
  finishReason: string | null;
  /** The backend that finished the generation. */
  backendId: string;
  /** Weight version of the backend that finished the generation (the last span's). */
  weightVersion: string | null;
  /**
   * Per-token weight versions, covering `responseIds` in order, when the generation was stopped
   * by an `abort-and-continue` weight sync and continued from its tokens (possibly under a newer
   * version). Absent when one request produced every token (`weightVersion` covers them all).
   */
  weightVersionSpans?: WeightVersionSpan[];
  /** Prompt tokens served from the backend's prefix cache; null when the backend does not say. */
  cachedPromptTokens: number | null;
  /** Time the backends spent on the generation, in ms (time held at a paused gate excluded). */
  latencyMs: number;
  /**
   * Time the call waited at the pool's gate while generation was paused for a weight sync, in ms
   * (absent or 0 when it never waited). Callers extend their own time budgets by it: a pause is
   * not the policy's slowness.
   */
  pausedMs?: number;
}

/** Scoring a token sequence on a teacher: the logprob of each token given the ones before it. */
export interface ScorePromptRequest {
  /** The job whose trajectory is scored (logs, and the router's bookkeeping). */
  jobId: string;
  /** The ids to score, at least 2 (the first has no logprob). */
  promptIds: readonly number[];
  /** The backends that may score it: any of a policy's, or one backend. */
  teacher: TTeacher;
  signal?: AbortSignal;
  /** Absolute deadline (epoch ms) for the call. */
  deadlineMs?: number;
}

export interface ScorePromptResult {
  /** One per id of `promptIds`: null for the first, the teacher's logprob for each other. */
  logprobs: (number | null)[];
  /** The backend that scored. */
  backendId: string;
}

/** The training run a job's generations are charged to when in-flight capacity is shared fairly. */
export interface GenerationFlow {
  /** The run's id; requests of no run share one flow (`""`). */
  flowId: string;
  /** The run's share (> 0). */
  weight: number;
  /** The job's priority: higher tiers are granted capacity first. */
  priority: number;
}

/** Finds the flow of a job's generations; null when the job is unknown (its requests go as no run's). */
export type GenerationFlowResolver = (jobId: string) => GenerationFlow | null;

/**
 * Finds the policy of a job's generations (the backends that may serve them, the pause that holds
 * them); null when the job is unknown (its requests go to the default policy).
 */
export type GenerationPolicyResolver = (jobId: string) => string | null;

/** Routes generations to inference backends (vLLM, SGLang, NeMo-RL, simulator). */
export interface InferencePool {
  generate(request: GenerateRequest): Promise<GenerateResult>;
  /**
   * Scores `promptIds` on the teacher (on-policy distillation). Throws an inference failure when
   * no backend of the teacher can take it, or its kind cannot score prompts. Pools without
   * teachers need not implement it.
   */
  scorePrompt?(request: ScorePromptRequest): Promise<ScorePromptResult>;
  /** The job is done: forget its sticky backend. */
  releaseJob(jobId: string): void;
  /**
   * Tells the pool how to find the run (share, priority) of a job's requests, for fair sharing of
   * in-flight capacity between runs. The engine calls it once, at construction, with the jobs it
   * runs; pools that do not share capacity per run need not implement it.
   */
  resolveFlowsWith?(flowOf: GenerationFlowResolver): void;
  /**
   * Tells the pool how to find the policy of a job's requests: they go only to that policy's
   * backends and wait only at that policy's weight-sync gate. The engine calls it once, at
   * construction; pools with one policy need not implement it.
   */
  resolvePoliciesWith?(policyOf: GenerationPolicyResolver): void;
}

/** Wire protocol of an inference backend. */
export type InferenceBackendKind = "vllm" | "sglang" | "nemo-rl";

/** Input of `registerBackend` (the `backends.register` procedure). */
export interface BackendRegistration {
  /** Unique id; registering an existing id updates it. */
  id: string;
  kind: InferenceBackendKind;
  /** Base URL, e.g. `http://gpu-3:8000`. */
  baseUrl: string;
  /** Served model name (sent as `model` to vLLM). */
  modelName: string;
  /** Version of the weights; default null (unknown). */
  weightVersion?: string | null;
  /** Requests the backend runs at once. Default 64. */
  maxConcurrency?: number;
  /** The policy whose weights it serves (only its jobs go to it). Default `DEFAULT_POLICY_ID`. */
  policyId?: string;
}

/** A registered backend with its routing state and statistics (the `backends.list` row). */
export interface BackendView extends BackendSnapshot {
  kind: InferenceBackendKind;
  baseUrl: string;
}

/** Run-time management of the backends behind an `InferencePool`. */
export interface InferenceBackendRegistry {
  /** Adds a backend or updates a known one. `isCreated` is false for an update. */
  registerBackend(input: BackendRegistration): { backend: BackendView; isCreated: boolean };
  listBackends(): BackendView[];
  /** Finishes in-flight turns, takes no new work; its jobs move on their next turn. Throws NOT_FOUND. */
  drainBackend(backendId: string): BackendView;
  /** Undoes a drain. Throws NOT_FOUND. */
  resumeBackend(backendId: string): BackendView;
  /** Forgets the backend; returns its last view. Throws NOT_FOUND. */
  removeBackend(backendId: string): BackendView;
  /** Records the weight version the backend now serves. Throws NOT_FOUND. */
  setWeightVersion(backendId: string, weightVersion: string | null): BackendView;
}

/**
 * The routing policy an `InferencePool` adapter executes (implemented by the engine's
 * `StickyRouter`). Pure decisions: the adapter does the I/O and reports outcomes back. Times are
 * epoch ms passed in by the caller.
 */
export interface InferenceRouter {
  registerBackend(backend: RoutableBackend, nowMs: number): { backend: BackendSnapshot; isCreated: boolean };
  removeBackend(backendId: string, nowMs: number): BackendSnapshot;
  drainBackend(backendId: string, nowMs: number): BackendSnapshot;
  resumeBackend(backendId: string, nowMs: number): BackendSnapshot;
  setWeightVersion(backendId: string, weightVersion: string | null, nowMs: number): BackendSnapshot;
  /**
   * Picks the backend for the job's next request among the backends of `policyId` (default: the
   * default policy) and counts it in flight; null when none can take it.
   */
  acquire(
    jobId: string,
    nowMs: number,
    options?: { excludeIds?: ReadonlySet<string>; policyId?: string },
  ): RouteDecision | null;
  /** Ends a request started by `acquire` (always exactly once). */
  release(backendId: string, outcome: RequestOutcome, nowMs: number): void;
  releaseJob(jobId: string): void;
  recordHealth(backendId: string, isHealthy: boolean, nowMs: number): void;
  recordBackendCounters(backendId: string, counters: BackendReportedCounters, nowMs: number): void;
  listBackends(nowMs: number): BackendSnapshot[];
}
