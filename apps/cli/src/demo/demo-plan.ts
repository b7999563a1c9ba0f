import type { TSweInstance, TSwePrediction } from "@raas/handlers";

/** How many groups of how many samples one step asks for. */
export interface DemoStepShape {
  groups: number;
  groupSize: number;
}

/** One demo training run: `steps` steps over a shipped dataset, the first one small. */
export interface DemoTrainingRun {
  /** Idempotency key: a restarted `npm start` finds the run instead of starting another. */
  runKey: string;
  name: string;
  /** A dataset of `GET /api/v1/datasets`; the run is skipped when the server does not ship it. */
  dataset: string;
  steps: number;
  /** The first step: one small group, so the run has a point on its reward curve early. */
  firstStep: DemoStepShape;
  /** Every later step. */
  laterSteps: DemoStepShape;
  /**
   * Sampling seed of the run's steps (`agent.seed`): the engine gives each member its own seed
   * from it, so members of a group sample differently from the simulator's coin-flip policy —
   * and a restart draws the same outcomes again.
   */
  seed: number;
}

/** One demo benchmark run over the shipped SWE fixtures. */
export interface DemoBenchmarkRun {
  /** The stored run's id (fixed, so a restart resumes or skips it). */
  id: string;
  /**
   * `rollouts`: one `swe` rollout per instance against the configured backend (the simulator);
   * `half-gold-predictions`: grade-only jobs for the gold patch of every other instance and an empty
   * patch for the rest — a labelled stand-in for a weaker model, so the comparison has contrast.
   */
  source: "rollouts" | "half-gold-predictions";
  /** Model label; rollouts use the backend's served model name when this is null. */
  model: string | null;
}

export interface DemoPlan {
  training: readonly DemoTrainingRun[];
  benchmarks: readonly DemoBenchmarkRun[];
  /**
   * Instances per stored chunk of a benchmark run: the first chunk is small so that the
   * comparison of the runs exists early; each later chunk adds its results as it finishes.
   */
  benchmarkChunks: { first: number; rest: number };
  /** Unfinished jobs per benchmark run at most. */
  benchmarkMaxInFlight: number;
}

/**
 * What `npm start` shows a newcomer within a minute. Everything starts at once: each training
 * run's first step is one small group, and the benchmark runs store their first two instances
 * before the rest, so every page has data after the first round of sandboxes (about 13 at a time);
 * later steps (about 20 sandboxes at a time) and chunks keep the pages moving for a few minutes.
 * Small on purpose: it shares the machine with whatever else runs, and too many sandboxes starting
 * at once on 2 cores time out.
 */
export const DEMO_PLAN: DemoPlan = {
  training: [
    {
      runKey: "demo-math",
      name: "demo-math",
      dataset: "math",
      steps: 5,
      firstStep: { groups: 1, groupSize: 4 },
      laterSteps: { groups: 2, groupSize: 4 },
      seed: 101,
    },
    {
      runKey: "demo-code",
      name: "demo-code",
      dataset: "code",
      steps: 3,
      firstStep: { groups: 1, groupSize: 4 },
      laterSteps: { groups: 2, groupSize: 3 },
      seed: 202,
    },
    {
      runKey: "demo-swe",
      name: "demo-swe",
      dataset: "swe",
      steps: 2,
      firstStep: { groups: 1, groupSize: 2 },
      laterSteps: { groups: 1, groupSize: 2 },
      seed: 303,
    },
  ],
  benchmarks: [
    { id: "demo-swe-simulator-rollouts", source: "rollouts", model: null },
    {
      id: "demo-swe-half-gold-predictions",
      source: "half-gold-predictions",
      model: "demo: gold patch on every other instance",
    },
  ],
  benchmarkChunks: { first: 2, rest: 4 },
  benchmarkMaxInFlight: 2,
};

/** The shape of step `index` (from 0) of `run`. */
export function stepShape(run: DemoTrainingRun, index: number): DemoStepShape {
  return index === 0 ? run.firstStep : run.laterSteps;
}

/** `items` in order, cut into a chunk of `first` and then chunks of `rest` (both at least 1). */
export function inChunks<T>(items: readonly T[], first: number, rest: number): T[][] {
  const chunks: T[][] = [];
  let size = Math.max(1, first);
  for (let at = 0; at < items.length; at += size, size = Math.max(1, rest)) {
    chunks.push(items.slice(at, at + size));
  }
  return chunks;
}

/** The plan's training runs whose dataset the server ships, and the names it does not. */
export function trainingRunsFor(
  plan: DemoPlan,
  datasets: readonly string[],
): { runs: DemoTrainingRun[]; missing: string[] } {
  const known = new Set(datasets);
  return {
    runs: plan.training.filter((run) => known.has(run.dataset)),
    missing: [...new Set(plan.training.map((run) => run.dataset).filter((name) => !known.has(name)))],
  };
}

/** The step key of step `index` of a demo run: the same on every restart. */
export function demoStepKey(index: number): string {
  return `demo-step-${index}`;
}

/**
 * Predictions for `half-gold-predictions`: the gold patch of instances 0, 2, 4, … and an empty
 * patch (counted unresolved without a job, as SWE-bench counts it) for the others.
 */
export function halfGoldPredictions(instances: readonly TSweInstance[], model: string): TSwePrediction[] {
  return instances.map((instance, index) => ({
    instance_id: instance.instance_id,
    model_name_or_path: model,
    model_patch: index % 2 === 0 ? instance.patch : "",
  }));
}
