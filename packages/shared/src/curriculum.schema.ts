import { z } from "zod";

const TASK_HISTORY_SCOPES = ["run", "dataset"] as const;

/** Defaults of the adaptive policy: owned here, nothing else repeats them. */
export const ADAPTIVE_SAMPLING_DEFAULTS = {
  targetPassRate: 0.5,
  windowSize: 16,
  retireAfterSolvedInARow: 16,
  reprobeEvery: 32,
  settledWeight: 0.05,
  scope: "run",
} as const;

const ZUniformSampling = z
  .object({
    policy: z.literal("uniform").describe("Every task in turn (seeded order with `shuffleSeed`)."),
  })
  .strict();

const ZAdaptiveSampling = z
  .object({
    policy: z
      .literal("adaptive")
      .describe("Curriculum: favour tasks near the target pass rate, retire solved ones."),
    targetPassRate: z
      .number()
      .min(0.01)
      .max(0.99)
      .default(ADAPTIVE_SAMPLING_DEFAULTS.targetPassRate)
      .describe("Pass rate the sampler favours (weight 1 there, falling off linearly). Default 0.5."),
    windowSize: z
      .number()
      .int()
      .min(1)
      .max(256)
      .default(ADAPTIVE_SAMPLING_DEFAULTS.windowSize)
      .describe("K: a task's pass rate is taken over its last K attempts (trajectories). Default 16."),
    retireAfterSolvedInARow: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(ADAPTIVE_SAMPLING_DEFAULTS.retireAfterSolvedInARow)
      .describe(
        "N: a task whose last N attempts all succeeded is retired (no longer drawn but to re-probe it). Default 16.",
      ),
    reprobeEvery: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .default(ADAPTIVE_SAMPLING_DEFAULTS.reprobeEvery)
      .describe(
        "Every this many draws of the run, the retired task probed longest ago is drawn again; a failure brings it back. Default 32.",
      ),
    settledWeight: z
      .number()
      .min(0)
      .max(1)
      .default(ADAPTIVE_SAMPLING_DEFAULTS.settledWeight)
      .describe(
        "Weight of a task always or never solved over its window (1 at the target pass rate). Default 0.05.",
      ),
    scope: z
      .enum(TASK_HISTORY_SCOPES)
      .default(ADAPTIVE_SAMPLING_DEFAULTS.scope)
      .describe(
        "Whose history decides: `run` (this run's attempts) or `dataset` (every run on the dataset). Default `run`.",
      ),
  })
  .strict();

export const ZTaskSampling = z.discriminatedUnion("policy", [ZUniformSampling, ZAdaptiveSampling]).meta({
  id: "TaskSampling",
  description:
    "How a step draws tasks from its source: `uniform` (in order, the default) or `adaptive` (curriculum over per-task pass rates).",
});
export type TTaskSampling = z.output<typeof ZTaskSampling>;
export type TAdaptiveSampling = z.output<typeof ZAdaptiveSampling>;

/** Edges of the pass-rate histogram's bins: [0, 0.1), [0.1, 0.2), …, [0.9, 1]. */
export const PASS_RATE_BIN_EDGES = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] as const;

const ZCurriculumTaskCounts = z.object({
  total: z.number().int().nonnegative().describe("Tasks in the source."),
  unexplored: z.number().int().nonnegative().describe("Tasks with no attempt yet."),
  active: z.number().int().nonnegative().describe("Tasks attempted and not retired."),
  retired: z.number().int().nonnegative().describe("Tasks retired (solved N times in a row)."),
  neverSolved: z.number().int().nonnegative().describe("Attempted tasks with no success in their window."),
  alwaysSolved: z
    .number()
    .int()
    .nonnegative()
    .describe("Attempted tasks with only successes in their window."),
});
export type TCurriculumTaskCounts = z.infer<typeof ZCurriculumTaskCounts>;

const ZCurriculumSnapshot = ZCurriculumTaskCounts.extend({
  stepId: z.string().describe("The step whose close took the snapshot."),
  stepIndex: z.number().int().nonnegative().describe("Its index in the run."),
  atMs: z.number().describe("When, ms since the Unix epoch."),
  histogram: z
    .array(z.number().int().nonnegative())
    .describe("Attempted tasks per pass-rate bin (`binEdges`), pass rate over the last K attempts."),
  meanPassRate: z.number().nullable().describe("Mean pass rate of attempted tasks, or null."),
}).meta({
  id: "CurriculumSnapshot",
  description: "Per-task pass rates of a run when one of its steps closed.",
});
export type TCurriculumSnapshot = z.infer<typeof ZCurriculumSnapshot>;

export const ZCurriculumStats = z
  .object({
    runId: z.string().describe("The run."),
    sampling: ZTaskSampling.nullable().describe("The task sampling of the run's latest step, or null."),
    windowSize: z.number().int().describe("K of the pass rates shown."),
    binEdges: z.array(z.number()).describe("Bin edges of every histogram (11 edges, 10 bins)."),
    current: ZCurriculumSnapshot.nullable().describe("The run's tasks now (null before its first step)."),
    snapshots: z.array(ZCurriculumSnapshot).describe("One per closed step, oldest first."),
  })
  .meta({
    id: "CurriculumStats",
    description: "Per-run curriculum statistics: tasks active/retired and the pass-rate histogram over time.",
  });
export type TCurriculumStats = z.infer<typeof ZCurriculumStats>;
