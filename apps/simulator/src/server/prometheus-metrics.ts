import type { SlotOccupancy } from "../engine/batch-slots";
import type { SimulatorCounters } from "../engine/simulated-model";

/** The simulator's own utilisation report, beside vLLM's gauges. */
export interface SimulatorUtilisation extends SlotOccupancy {
  /** Batch slots (vLLM's `max_num_seqs`). */
  maxNumSeqs: number;
  /** Generated tokens per second with every slot decoding; null when decoding takes no time. */
  decodeCapacityTokensPerSec: number | null;
}

/**
 * Prometheus text exposition with vLLM's metric names (counters carry the `_total` suffix). vLLM
 * reports utilisation only as gauges sampled at scrape time (`vllm:num_requests_running`) and
 * token counters; the simulator adds exact integrals under its own `raas_simulator_` prefix
 * (busy seconds, slot-seconds) and its capacity, so that what a scraper computes from the
 * gauges can be checked against the truth.
 */
export function renderPrometheusMetrics(
  counters: SimulatorCounters,
  gauges: { running: number; waiting: number; cacheBlocks: number; cacheCapacityBlocks: number },
  model: string,
  utilisation: SimulatorUtilisation,
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
  metric(
    "raas_simulator_max_num_seqs",
    "gauge",
    "Batch slots (requests decoding at once).",
    utilisation.maxNumSeqs,
  );
  metric(
    "raas_simulator_busy_seconds",
    "counter",
    "Seconds with at least one request in a batch slot.",
    utilisation.busySeconds,
  );
  metric(
    "raas_simulator_batch_slot_seconds",
    "counter",
    "Requests in batch slots integrated over time, in slot-seconds.",
    utilisation.slotSeconds,
  );
  if (utilisation.decodeCapacityTokensPerSec !== null) {
    metric(
      "raas_simulator_decode_capacity_tokens_per_second",
      "gauge",
      "Generation tokens per second with every batch slot decoding.",
      utilisation.decodeCapacityTokensPerSec,
    );
  }
  return `${lines.join("\n")}\n`;
}
