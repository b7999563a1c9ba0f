import type { SimulatorCounters } from "../engine/simulated-model";

/** Prometheus text exposition with vLLM's metric names (counters carry the `_total` suffix). */
export function renderPrometheusMetrics(
  counters: SimulatorCounters,
  gauges: { running: number; waiting: number; cacheBlocks: number; cacheCapacityBlocks: number },
  model: string,
): string {
  const label = `{model_name="${model.replace(/["\\]/g, "_")}"}`;
  const lines: string[] = [];
  const metric = (name: string, type: "counter" | "gauge", help: string, value: number) => {
    lines.push(
      `# HELP ${name} ${help}`,
      `# TYPE ${name} ${type}`,
      `${name}${type === "counter" ? "_total" : ""}${label} ${value}`,
    );
  };
  metric(
    "vllm:prefix_cache_queries",
    "counter",
    "Prefix cache queries, in tokens.",
    counters.prefixCacheQueries,
  );
  metric("vllm:prefix_cache_hits", "counter", "Prefix cache hits, in tokens.", counters.prefixCacheHits);
  metric("vllm:prompt_tokens", "counter", "Prefill tokens processed.", counters.promptTokens);
  metric("vllm:generation_tokens", "counter", "Generation tokens processed.", counters.generationTokens);
  metric("vllm:request_success", "counter", "Successfully finished requests.", counters.requestsSucceeded);
  metric("vllm:num_requests_running", "gauge", "Requests in batch slots.", gauges.running);
  metric("vllm:num_requests_waiting", "gauge", "Requests waiting for a slot.", gauges.waiting);
  metric(
    "vllm:kv_cache_usage_perc",
    "gauge",
    "Fraction of prefix-cache blocks in use.",
    gauges.cacheCapacityBlocks === 0 ? 0 : gauges.cacheBlocks / gauges.cacheCapacityBlocks,
  );
  return `${lines.join("\n")}\n`;
}
