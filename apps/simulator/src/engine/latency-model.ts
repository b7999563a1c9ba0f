/** Defaults of the latency model, in ms (prefill per uncached prompt token, decode per token). */
export const DEFAULT_PREFILL_MS_PER_TOKEN = 0.01;
export const DEFAULT_DECODE_MS_PER_TOKEN = 0.2;

/** Simulated GPU timing. All times in ms. */
export interface LatencyModelOptions {
  /** Time per prompt token not served from the prefix cache. Default 0.01 ms. */
  prefillMsPerToken?: number;
  /** Time per generated token. Default 0.2 ms. */
  decodeMsPerToken?: number;
  /** Fixed cost per request (scheduling, sampling set-up). Default 0 ms. */
  overheadMs?: number;
}

export interface LatencyModel {
  prefillMs(uncachedTokens: number): number;
  decodeMs(outputTokens: number): number;
}

export function createLatencyModel(options: LatencyModelOptions = {}): LatencyModel {
  const prefill = options.prefillMsPerToken ?? DEFAULT_PREFILL_MS_PER_TOKEN;
  const decode = options.decodeMsPerToken ?? DEFAULT_DECODE_MS_PER_TOKEN;
  const overhead = options.overheadMs ?? 0;
  return {
    prefillMs: (uncachedTokens) => overhead + prefill * uncachedTokens,
    decodeMs: (outputTokens) => decode * outputTokens,
  };
}
