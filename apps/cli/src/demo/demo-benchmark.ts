import type { SweJobGateway, TSweInstance } from "@raas/handlers";
import type { RaasClient } from "../client";
import { benchmarkStore } from "../commands/benchmark-store";
import { type DemoBenchmarkRun, type DemoPlan, halfGoldPredictions, inChunks } from "./demo-plan";

export interface DemoBenchmarkOptions {
  client: RaasClient;
  plan: Pick<DemoPlan, "benchmarkChunks" | "benchmarkMaxInFlight">;
  /** The SWE instances the run goes over. */
  sweInstances: readonly TSweInstance[];
  /** Submits and waits for the run's jobs. */
  gateway: SweJobGateway;
  log(message: string): void;
  /** Called once the run has stored results (its first chunk, or earlier when already complete). */
  onFirstResults(): void;
  signal?: AbortSignal;
}

/**
 * Stores one demo benchmark run chunk by chunk — a small first chunk, so that a comparison of the
 * runs exists early, then the rest, each chunk's results recorded as it finishes — and marks it
 * completed. Skipped when a completed run is stored already. Returns its id.
 */
export async function runDemoBenchmark(
  options: DemoBenchmarkOptions,
  spec: DemoBenchmarkRun,
  backendModel: string,
): Promise<string> {
  const { client, log } = options;
  const existing = await client.benchmarks.get.query({ runId: spec.id }).catch(() => null);
  if (existing?.run.status === "completed") {
    log(`benchmark run ${spec.id} is already stored`);
    options.onFirstResults();
    return spec.id;
  }
  const { runSweBenchmark } = await import("@raas/handlers");
  const model = spec.model ?? backendModel;
  const predictions =
    spec.source === "half-gold-predictions" ? halfGoldPredictions(options.sweInstances, model) : undefined;
  const store = benchmarkStore(client, log);
  await store.createRun({
    id: spec.id,
    model,
    dataset: "raas-swe-fixtures",
    config: { demo: true, source: spec.source },
  });
  const { first, rest } = options.plan.benchmarkChunks;
  let resolved = 0;
  let total = 0;
  for (const chunk of inChunks(options.sweInstances, first, rest)) {
    const ids = new Set(chunk.map((instance) => instance.instance_id));
    // Job keys hold the run id and the instance, so a restart finds each chunk's jobs again.
    const outcome = await runSweBenchmark({
      instances: chunk,
      model,
      runId: spec.id,
      gateway: options.gateway,
      maxInFlight: options.plan.benchmarkMaxInFlight,
      ...(predictions && { predictions: predictions.filter((p) => ids.has(p.instance_id)) }),
      ...(options.signal && { signal: options.signal }),
    });
    await store.recordResults(spec.id, outcome.results);
    resolved += outcome.results.filter((result) => result.resolved).length;
    total += outcome.results.length;
    if (total === outcome.results.length) options.onFirstResults();
  }
  await store.finishRun(spec.id, "completed");
  log(`benchmark run ${spec.id}: ${resolved}/${total} resolved`);
  return spec.id;
}
