// The DAPO bench's task pool: per-task success probabilities (always solved, never solved, mixed)
// and a long-tailed spread of trajectory lengths, as simulator scripts. Pure and seeded.
import type { TPolicyConfigInput, TTaskScript } from "@raas/simulator";
import { createRandom, sampleLogNormalMs } from "../scale/random";

export const DAPO_TASK_KIND = "dapo-sim";

export interface DapoTask {
  taskId: string;
  /** Probability that one trajectory of this task is solved. */
  probability: number;
  /** Model turns of a solved trajectory (the last one submits "correct"). */
  successTurns: number;
  /** Model turns of a failed one (the last one submits "wrong"): failing agents flail longer. */
  failureTurns: number;
  /** Words of the problem statement (prompt length varies per task). */
  problemWords: number;
  /** Base of its members' sampling seeds (slot k samples with seed + 7_919 k). */
  seed: number;
}

export interface DapoMix {
  /** Share of tasks every trajectory solves (p = 1). Default 0.3. */
  alwaysSolved: number;
  /** Share of tasks no trajectory solves (p = 0). Default 0.3. */
  neverSolved: number;
  /** Probability range of the rest (uniform). Default [0.2, 0.8]. */
  mixedRange: [number, number];
  /** Median model turns of a solved trajectory (log-normal, σ below). Default 4. */
  medianTurns: number;
  /** Log-normal σ of the turn count: 0.7 gives a long tail (p99 ≈ 5 × median). Default 0.7. */
  turnsSigma: number;
  /** Turn counts are clamped to [2, maxTurns]. Default 28. */
  maxTurns: number;
  /** Failed trajectories take this many times the turns of a solved one. Default 1.5. */
  failureTurnsFactor: number;
}

export const DEFAULT_DAPO_MIX: DapoMix = {
  alwaysSolved: 0.3,
  neverSolved: 0.3,
  mixedRange: [0.2, 0.8],
  medianTurns: 4,
  turnsSigma: 0.7,
  maxTurns: 28,
  failureTurnsFactor: 1.5,
};

/** `count` tasks in a seeded random order (the same stream for every strategy). */
export function buildDapoTasks(count: number, seed: number, mix: DapoMix = DEFAULT_DAPO_MIX): DapoTask[] {
  const random = createRandom(seed);
  const clampTurns = (turns: number) => Math.min(mix.maxTurns, Math.max(2, Math.round(turns)));
  return Array.from({ length: count }, (_, i) => {
    const draw = random();
    const [low, high] = mix.mixedRange;
    const probability =
      draw < mix.alwaysSolved
        ? 1
        : draw < mix.alwaysSolved + mix.neverSolved
          ? 0
          : Math.round((low + random() * (high - low)) * 100) / 100;
    const successTurns = clampTurns(sampleLogNormalMs(random, mix.medianTurns, mix.turnsSigma));
    return {
      taskId: `dapo-${seed}-${i}`,
      probability,
      successTurns,
      failureTurns: clampTurns(successTurns * mix.failureTurnsFactor),
      problemWords: 20 + Math.floor(random() * 120),
      seed: 1 + ((i * 104_729) % 1_000_000_007),
    };
  });
}

/** Per-turn thinking of the simulated policy, in words (drawn per turn). */
const THINKING_WORDS: [number, number] = [10, 50];

function script(turns: number, answer: "correct" | "wrong"): TTaskScript {
  const work = { thinkingWords: THINKING_WORDS, toolCalls: [{ name: "bash", arguments: { command: "ls" } }] };
  const submit = { thinkingWords: THINKING_WORDS, toolCalls: [{ name: "submit", arguments: { answer } }] };
  return { steps: [...Array.from({ length: turns - 1 }, () => work), submit], repeatLast: false };
}

/** The simulator's success-probability policy for these tasks (answers "correct" or "wrong"). */
export function dapoPolicyConfig(tasks: readonly DapoTask[]): TPolicyConfigInput {
  return {
    kind: "success-probability",
    tasks: Object.fromEntries(
      tasks.map((task) => [
        task.taskId,
        {
          probability: task.probability,
          success: script(task.successTurns, "correct"),
          failure: script(task.failureTurns, "wrong"),
        },
      ]),
    ),
  };
}

/** Share of n-sample groups of a task that have zero reward variance (all solved or all failed). */
export function zeroVarianceChance(probability: number, groupSize: number): number {
  return probability ** groupSize + (1 - probability) ** groupSize;
}
