/** A backend's own figures from its `/metrics`, per data-parallel engine (vLLM's `engine` label). */
export interface BackendEngineCounters {
  /** The `engine` label; `"0"` for a server without data parallelism or labels. */
  engine: string;
  /** Prefix-cache lookups / hits in tokens; null when this engine does not report them. */
  prefixCacheQueries: number | null;
  prefixCacheHits: number | null;
  /** Fraction (0..1) of this engine's KV-cache blocks in use; null when not reported. */
  kvCacheUsage: number | null;
  /** Requests running / waiting on this engine; null when not reported. */
  running: number | null;
  waiting: number | null;
}

/** Counters the backend reports itself (e.g. vLLM's `vllm:prefix_cache_queries` / `_hits`, in tokens). */
export interface BackendReportedCounters {
  /** Prefix-cache lookups in tokens, summed over the backend's engines. */
  prefixCacheQueries: number;
  /** Prefix-cache hits in tokens, summed over the backend's engines. */
  prefixCacheHits: number;
  /** KV-cache usage over engines: each engine's fraction averaged, and the fullest one. Never a sum. */
  kvCacheUsage?: { mean: number; max: number } | null;
  /** The same figures per engine. */
  engines?: BackendEngineCounters[];
}

/** Per-backend statistics as seen by the router. Token counts are totals since registration. */
export interface BackendStats {
  requests: number;
  /** Requests that ended in a failure (connection, HTTP status, bad response, deadline). */
  errors: number;
  /** Requests aborted by the caller; not counted as errors. */
  aborted: number;
  promptTokens: number;
  /** Prompt tokens served from the prefix cache, over the requests whose count the backend gave. */
  cachedPromptTokens: number;
  /** Prompt tokens of the successful requests whose cached count the backend gave (the hit rate's denominator). */
  promptTokensWithKnownCache: number;
  responseTokens: number;
  /**
   * cachedPromptTokens / prompt tokens of the successful requests whose cached count is known;
   * null while there is none (a backend that never says is not a 0 % hit rate).
   */
  prefixCacheHitRate: number | null;
  /** Successful requests whose cached-token count the backend did not report. */
  requestsWithUnknownCachedTokens: number;
  /** Response tokens per second over the stats window. */
  responseTokensPerSec: number;
  /** Mean latency of successful requests in ms; 0 before the first one. */
  meanLatencyMs: number;
  /** The backend's own counters and their hit rate, when it exposes them (null otherwise). */
  reported: (BackendReportedCounters & { hitRate: number }) | null;
}

interface TokenSample {
  atMs: number;
  tokens: number;
}

/** Accumulates a backend's statistics; pure bookkeeping, time is passed in. */
export class BackendStatsAccumulator {
  private requests = 0;
  private errors = 0;
  private aborted = 0;
  private promptTokens = 0;
  private cachedPromptTokens = 0;
  private promptTokensWithKnownCache = 0;
  private unknownCached = 0;
  private responseTokens = 0;
  private latencyTotalMs = 0;
  private successes = 0;
  private reported: BackendReportedCounters | null = null;
  private readonly window: TokenSample[] = [];

  /** @param windowMs span of the tokens/s figure in ms. */
  constructor(private readonly windowMs: number) {}

  recordSuccess(
    usage: {
      promptTokens: number;
      cachedPromptTokens: number | null;
      responseTokens: number;
      latencyMs: number;
    },
    nowMs: number,
  ): void {
    this.requests += 1;
    this.successes += 1;
    this.promptTokens += usage.promptTokens;
    if (usage.cachedPromptTokens === null) this.unknownCached += 1;
    else {
      this.cachedPromptTokens += Math.min(usage.cachedPromptTokens, usage.promptTokens);
      this.promptTokensWithKnownCache += usage.promptTokens;
    }
    this.responseTokens += usage.responseTokens;
    this.latencyTotalMs += usage.latencyMs;
    this.window.push({ atMs: nowMs, tokens: usage.responseTokens });
    this.trim(nowMs);
  }

  recordFailure(): void {
    this.requests += 1;
    this.errors += 1;
  }

  recordAbort(): void {
    this.requests += 1;
    this.aborted += 1;
  }

  recordReported(counters: BackendReportedCounters): void {
    this.reported = { ...counters, engines: counters.engines?.map((engine) => ({ ...engine })) };
  }

  snapshot(nowMs: number): BackendStats {
    this.trim(nowMs);
    const windowTokens = this.window.reduce((sum, sample) => sum + sample.tokens, 0);
    const reported = this.reported;
    return {
      requests: this.requests,
      errors: this.errors,
      aborted: this.aborted,
      promptTokens: this.promptTokens,
      cachedPromptTokens: this.cachedPromptTokens,
      promptTokensWithKnownCache: this.promptTokensWithKnownCache,
      responseTokens: this.responseTokens,
      prefixCacheHitRate:
        this.promptTokensWithKnownCache === 0
          ? null
          : this.cachedPromptTokens / this.promptTokensWithKnownCache,
      requestsWithUnknownCachedTokens: this.unknownCached,
      responseTokensPerSec: windowTokens / (this.windowMs / 1000),
      meanLatencyMs: this.successes === 0 ? 0 : this.latencyTotalMs / this.successes,
      reported:
        reported === null
          ? null
          : {
              ...reported,
              hitRate:
                reported.prefixCacheQueries === 0
                  ? 0
                  : reported.prefixCacheHits / reported.prefixCacheQueries,
            },
    };
  }

  private trim(nowMs: number): void {
    let drop = 0;
    while (drop < this.window.length && (this.window[drop] as TokenSample).atMs <= nowMs - this.windowMs)
      drop += 1;
    if (drop > 0) this.window.splice(0, drop);
  }
}
