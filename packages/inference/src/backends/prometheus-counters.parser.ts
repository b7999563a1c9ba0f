/**
 * Sums the samples of a Prometheus metric across label sets. Accepts the name with or without the
 * `_total` suffix counters carry. Returns null when the metric is absent.
 */
export function readPrometheusMetric(text: string, name: string): number | null {
  let total: number | null = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || line.trim() === "") continue;
    const match = /^([^\s{]+)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const metric = match[1];
    if (metric !== name && metric !== `${name}_total`) continue;
    const value = Number(match[3]);
    if (Number.isFinite(value)) total = (total ?? 0) + value;
  }
  return total;
}

/** vLLM's prefix-cache counters (`vllm:prefix_cache_queries` / `vllm:prefix_cache_hits`, in tokens). */
export function readVllmPrefixCacheCounters(
  text: string,
): { prefixCacheQueries: number; prefixCacheHits: number } | null {
  const queries = readPrometheusMetric(text, "vllm:prefix_cache_queries");
  const hits = readPrometheusMetric(text, "vllm:prefix_cache_hits");
  return queries === null || hits === null ? null : { prefixCacheQueries: queries, prefixCacheHits: hits };
}
