import type { SweJobGateway, TSweInstance } from "@raas/handlers";
import type { RaasClient } from "../client";
import { sweJobGateway } from "../commands/swe-job-gateway";
import { runDemoBenchmark } from "./demo-benchmark";
import { DemoMilestones, type TDemoMilestone } from "./demo-milestones";
import { type DemoPlan, type DemoTrainingRun, demoStepKey, stepShape, trainingRunsFor } from "./demo-plan";

export interface DemoOptions {
  client: RaasClient;
  plan: DemoPlan;
  /** The SWE instances benchmark runs go over (the shipped fixtures); none skips benchmark runs. */
  sweInstances: readonly TSweInstance[];
  log(message: string): void;
  /** How often a running step is read back, ms. Default 1_000. */
  pollMs?: number;
  /** Milliseconds on a monotonic clock, for the time-to-first-results line. Default `performance.now`. */
  now?: () => number;
  signal?: AbortSignal;
}

export interface DemoSummary {
  /** Training run ids by run key. */
  runs: Record<string, string>;
  /** Stored benchmark run ids. */
  benchmarks: string[];
  /** Milliseconds from the demo's start until every page had data; null when that was never reached. */
  firstResultsMs: number | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one demo training run to its end: its steps one after the other (the first one small),
 * then finishes the run, reaching its `step:` milestone once its first step is handed out.
 */
async function runTraining(
  options: DemoOptions,
  spec: DemoTrainingRun,
  model: string,
  reach: (milestone: TDemoMilestone) => void,
): Promise<string> {
  const { client, log } = options;
  const { run, created } = await client.runs.create.mutate({
    name: spec.name,
    runKey: spec.runKey,
    model,
    dataset: spec.dataset,
    config: { demo: true, firstStep: spec.firstStep, laterSteps: spec.laterSteps, steps: spec.steps },
  });
  if (run.status === "finished") {
    log(`run ${spec.name} (${run.id}) is already complete`);
    reach(`step:${spec.runKey}`);
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
      ...stepShape(spec, index),
      // A seed per step: the engine derives each member's sampling seed from it, so members of a
      // group answer differently under the simulator's coin-flip policy (informative groups).
      agent: { seed: spec.seed + index },
      // Every complete group goes out, so each step's reward mean moves with the tasks drawn.
      dynamicSampling: { policy: "none", overProvision: 1 },
      shuffleSeed: 7,
    });
    reach("queues");
    let current = step;
    while (current.status === "running") {
      options.signal?.throwIfAborted();
      await sleep(options.pollMs ?? 1_000);
      current = await client.steps.get.query({ stepId: step.id });
    }
    if (current.stats.trajectories > 0) reach(`step:${spec.runKey}`);
    const { rewardMean, rewardMin, rewardMax, informative, groupsDecided } = current.stats;
    const format = (value: number | null) => (value === null ? "-" : value.toFixed(2));
    log(
      `run ${spec.name} step ${index + 1}/${spec.steps} ${current.status}: reward mean ${format(rewardMean)} ` +
        `(min ${format(rewardMin)}, max ${format(rewardMax)}), informative groups ${informative}/${groupsDecided}`,
    );
  }
  await client.runs.finish.mutate({ runId: run.id });
  return run.id;
}

/**
 * Fills a fresh server with something to look at, all at once so that every dashboard page has
 * data early: the plan's training runs (over the datasets the server ships) side by side, each
 * starting with a small step, and beside them its benchmark runs, each storing a small first chunk
 * of instances before the rest. Logs when every page first had data. Idempotent: runs are found
 * again by their keys, steps by their step keys, benchmark runs by their ids, so a restart resumes
 * or skips them.
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

  const milestones = new DemoMilestones({
    runKeys: runs.map((spec) => spec.runKey),
    hasComparison: benchmarks.length > 1,
    now: options.now ?? (() => performance.now()),
  });
  const reach = (milestone: TDemoMilestone) => {
    const line = milestones.reach(milestone);
    if (line !== null) log(line);
  };
  const base = sweJobGateway(client);
  const gateway: SweJobGateway = {
    submit: async (requests) => {
      const submitted = await base.submit(requests);
      reach("queues");
      return submitted;
    },
    wait: base.wait,
  };
  const stored = new Set<string>();
  const [runIds, benchmarkIds] = await Promise.all([
    Promise.all(runs.map((spec) => runTraining(options, spec, model, reach))),
    Promise.all(
      benchmarks.map((spec) =>
        runDemoBenchmark(
          {
            client,
            plan,
            sweInstances: options.sweInstances,
            gateway,
            log,
            onFirstResults: () => {
              stored.add(spec.id);
              if (stored.size === benchmarks.length) reach("comparison");
            },
            ...(options.signal && { signal: options.signal }),
          },
          spec,
          model,
        ),
      ),
    ),
  ]);
  return {
    runs: Object.fromEntries(runs.map((spec, index) => [spec.runKey, runIds[index] as string])),
    benchmarks: benchmarkIds,
    firstResultsMs: milestones.allReachedAfterMs(),
  };
}
