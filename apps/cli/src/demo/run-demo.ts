import type { TSweInstance } from "@raas/handlers";
import type { RaasClient } from "../client";
import { benchmarkStore } from "../commands/benchmark-store";
import { sweJobGateway } from "../commands/swe-job-gateway";
import {
  type DemoBenchmarkRun,
  type DemoPlan,
  type DemoTrainingRun,
  demoStepKey,
  halfGoldPredictions,
  trainingRunsFor,
} from "./demo-plan";

export interface DemoOptions {
  client: RaasClient;
  plan: DemoPlan;
  /** The SWE instances benchmark runs go over (the shipped fixtures); none skips benchmark runs. */
  sweInstances: readonly TSweInstance[];
  log(message: string): void;
  /** How often a running step is read back, ms. Default 1_000. */
  pollMs?: number;
  signal?: AbortSignal;
}

export interface DemoSummary {
  /** Training run ids by run key. */
  runs: Record<string, string>;
  /** Stored benchmark run ids. */
  benchmarks: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs one demo training run to its end: its steps one after the other, then finishes the run. */
async function runTraining(options: DemoOptions, spec: DemoTrainingRun, model: string): Promise<string> {
  const { client, log } = options;
  const { run, created } = await client.runs.create.mutate({
    name: spec.name,
    runKey: spec.runKey,
    model,
    dataset: spec.dataset,
    config: { demo: true, groups: spec.groups, groupSize: spec.groupSize, steps: spec.steps },
  });
  if (run.status === "finished") {
    log(`run ${spec.name} (${run.id}) is already complete`);
    return run.id;
  }
  log(
    `run ${spec.name} (${run.id}) ${created ? "created" : "resumed"}: ${spec.steps} steps over ${spec.dataset}`,
  );
  for (let index = 0; index < spec.steps; index += 1) {
    options.signal?.throwIfAborted();
    const { step } = await client.steps.create.mutate({
      runId: run.id,
      stepKey: demoStepKey(index),
      tasks: { type: "dataset", dataset: spec.dataset },
      groups: spec.groups,
      groupSize: spec.groupSize,
      // Every complete group goes out, so each step's reward mean moves with the tasks drawn.
      dynamicSampling: { policy: "none", overProvision: 1 },
      shuffleSeed: 7,
    });
    let current = step;
    while (current.status === "running") {
      options.signal?.throwIfAborted();
      await sleep(options.pollMs ?? 1_000);
      current = await client.steps.get.query({ stepId: step.id });
    }
    const mean = current.stats.rewardMean;
    log(
      `run ${spec.name} step ${index + 1}/${spec.steps} ${current.status}: reward mean ${mean === null ? "-" : mean.toFixed(2)}`,
    );
  }
  await client.runs.finish.mutate({ runId: run.id });
  return run.id;
}

/** Stores one demo benchmark run (skipped when a completed one is stored already). Returns its id. */
async function runBenchmark(options: DemoOptions, spec: DemoBenchmarkRun, backendModel: string) {
  const { client, log } = options;
  const existing = await client.benchmarks.get.query({ runId: spec.id }).catch(() => null);
  if (existing?.run.status === "completed") {
    log(`benchmark run ${spec.id} is already stored`);
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
  const gateway = sweJobGateway(client);
  const outcome = await runSweBenchmark({
    instances: options.sweInstances,
    model,
    runId: spec.id,
    gateway,
    maxInFlight: 2,
    ...(predictions && { predictions }),
    ...(options.signal && { signal: options.signal }),
  });
  await store.recordResults(spec.id, outcome.results);
  await store.finishRun(spec.id, "completed");
  const resolved = outcome.results.filter((result) => result.resolved).length;
  log(`benchmark run ${spec.id}: ${resolved}/${outcome.results.length} resolved`);
  return spec.id;
}

/** Runs `work` over `items` one after the other. */
async function inTurn<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (const item of items) results.push(await work(item));
  return results;
}

/**
 * Fills a fresh server with something to look at: the plan's training runs (over the datasets the
 * server ships) one after the other, and beside them its benchmark runs one after the other.
 * Idempotent: runs are found again by their keys, steps by their step keys, benchmark runs by their
 * ids, so a restart resumes or skips them.
 */
export async function runDemo(options: DemoOptions): Promise<DemoSummary> {
  const { client, plan, log } = options;
  const { items: datasets } = await client.datasets.list.query();
  const { runs, missing } = trainingRunsFor(
    plan,
    datasets.map((d) => d.name),
  );
  if (missing.length > 0) log(`the server ships no ${missing.join(", ")} dataset; those runs are skipped`);
  const backends = await client.backends.list.query();
  const model = backends.backends[0]?.modelName;
  if (model === undefined) throw new Error("the server has no inference backend; register one first");
  const hasSwe = datasets.some((dataset) => dataset.name === "swe");
  if (!hasSwe) log("the server runs no swe handler; the benchmark runs are skipped");
  const benchmarks = hasSwe && options.sweInstances.length > 0 ? plan.benchmarks : [];
  const [runIds, benchmarkIds] = await Promise.all([
    inTurn(runs, (spec) => runTraining(options, spec, model)),
    inTurn(benchmarks, (spec) => runBenchmark(options, spec, model)),
  ]);
  return {
    runs: Object.fromEntries(runs.map((spec, index) => [spec.runKey, runIds[index] as string])),
    benchmarks: benchmarkIds,
  };
}
