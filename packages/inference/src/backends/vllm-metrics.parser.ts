import type { BackendEngineCounters, BackendReportedCounters } from "@raas/engine";
import { readPrometheusSamples } from "./prometheus-counters.parser";

/** Current and deprecated (vLLM < 0.10) names; the first one present wins. */
const NAMES = {
  queries: ["vllm:prefix_cache_queries", "vllm:gpu_prefix_cache_queries"],
  hits: ["vllm:prefix_cache_hits", "vllm:gpu_prefix_cache_hits"],
  kvCacheUsage: ["vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"],
  running: ["vllm:num_requests_running"],
  waiting: ["vllm:num_requests_waiting"],
} as const;

type Figure = keyof typeof NAMES;

/** Per `engine` label (data parallelism: one series per engine), the value of the first present name. */
function perEngine(text: string, names: readonly string[]): Map<string, number> | null {
  for (const name of names) {
    const samples = readPrometheusSamples(text, name);
    if (samples.length === 0) continue;
    const byEngine = new Map<string, number>();
    for (const sample of samples) {
      const engine = sample.labels.engine ?? "0";
      byEngine.set(engine, (byEngine.get(engine) ?? 0) + sample.value);
    }
    return byEngine;
  }
  return null;
}

/**
 * vLLM's own figures from its `/metrics` body: prefix-cache queries and hits (tokens) and
 * running/waiting per engine with their totals, KV-cache usage per engine with its mean and max
 * (a fraction per engine; summing fractions means nothing). Falls back to the deprecated
 * `vllm:gpu_prefix_cache_*` / `vllm:gpu_cache_usage_perc` names. Null without prefix-cache counters.
 */
export function readVllmMetrics(text: string): BackendReportedCounters | null {
  const figures = Object.fromEntries(
    (Object.keys(NAMES) as Figure[]).map((figure) => [figure, perEngine(text, NAMES[figure])]),
  ) as Record<Figure, Map<string, number> | null>;
  if (figures.queries === null || figures.hits === null) return null;
  const engineIds = new Set<string>();
  for (const map of Object.values(figures)) for (const id of map?.keys() ?? []) engineIds.add(id);
  const engines: BackendEngineCounters[] = [...engineIds]
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
    .map((engine) => ({
      engine,
      prefixCacheQueries: figures.queries?.get(engine) ?? null,
      prefixCacheHits: figures.hits?.get(engine) ?? null,
      kvCacheUsage: figures.kvCacheUsage?.get(engine) ?? null,
      running: figures.running?.get(engine) ?? null,
      waiting: figures.waiting?.get(engine) ?? null,
    }));
  const usages = engines.map((e) => e.kvCacheUsage).filter((u): u is number => u !== null);
  return {
    prefixCacheQueries: sum(figures.queries),
    prefixCacheHits: sum(figures.hits),
    kvCacheUsage:
      usages.length === 0
        ? null
        : { mean: usages.reduce((a, b) => a + b, 0) / usages.length, max: Math.max(...usages) },
    engines,
  };
}

function sum(map: Map<string, number>): number {
  let total = 0;
  for (const value of map.values()) total += value;
  return total;
}
