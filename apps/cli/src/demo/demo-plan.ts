import type { TSweInstance, TSwePrediction } from "@raas/handlers";

/** One demo training run: `steps` steps of `groups` × `groupSize` samples over a shipped dataset. */
export interface DemoTrainingRun {
  /** Idempotency key: a restarted `npm start` finds the run instead of starting another. */
  runKey: string;
  name: string;
  /** A dataset of `GET /api/v1/datasets`; the run is skipped when the server does not ship it. */
  dataset: string;
  steps: number;
  groups: number;
  groupSize: number;
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
}

/**
 * What `npm start` shows a newcomer within a minute: short training runs over the shipped math,
 * code and SWE items (every group handed out, so reward curves move step by step) and two stored
 * SWE-bench runs to compare. Small on purpose (about 10 sandboxes at a time): it shares the
 * machine with whatever else runs, and too many sandboxes starting at once on 2 cores time out.
 */
export const DEMO_PLAN: DemoPlan = {
  training: [
    { runKey: "demo-math", name: "demo-math", dataset: "math", steps: 5, groups: 2, groupSize: 4 },
    { runKey: "demo-code", name: "demo-code", dataset: "code", steps: 3, groups: 2, groupSize: 4 },
    { runKey: "demo-swe", name: "demo-swe", dataset: "swe", steps: 2, groups: 1, groupSize: 2 },
  ],
  benchmarks: [
    { id: "demo-swe-simulator-rollouts", source: "rollouts", model: null },
    {
      id: "demo-swe-half-gold-predictions",
      source: "half-gold-predictions",
      model: "demo: gold patch on every other instance",
    },
  ],
};

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
