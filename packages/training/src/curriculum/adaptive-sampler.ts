import type { TAdaptiveSampling } from "@raas/shared";
import { type TaskHistory, windowPassRate } from "./task-history";

type Policy = Pick<
  TAdaptiveSampling,
  "targetPassRate" | "windowSize" | "retireAfterSolvedInARow" | "reprobeEvery" | "settledWeight"
>;

/** A task is retired once its last N attempts all succeeded (it comes back when a re-probe fails). */
export function isRetired(
  history: TaskHistory | undefined,
  policy: Pick<Policy, "retireAfterSolvedInARow">,
): boolean {
  return (history?.solvedInARow ?? 0) >= policy.retireAfterSolvedInARow;
}

/**
 * A task's sampling weight (pure): 1 for a task never tried (explore it) and at the target pass
 * rate, falling off linearly to `settledWeight` for a task always or never solved over its last
 * K attempts; 0 when retired.
 */
export function taskWeight(history: TaskHistory | undefined, policy: Policy): number {
  if (isRetired(history, policy)) return 0;
  const rate = windowPassRate(history, policy.windowSize);
  if (rate === null) return 1;
  const target = policy.targetPassRate;
  const distance = Math.abs(rate - target) / Math.max(target, 1 - target);
  return policy.settledWeight + (1 - policy.settledWeight) * (1 - distance);
}

export interface AdaptiveDrawInput<T extends { taskId: string }> {
  tasks: readonly T[];
  history: ReadonlyMap<string, TaskHistory>;
  policy: Policy;
  /** Draws the run made from this source so far (the re-probe clock). */
  draws: number;
  /** Tasks not to draw while others remain (those with a group running in the step). */
  exclude: ReadonlySet<string>;
  /** A number in [0, 1). */
  random: number;
}

export interface AdaptiveDraw {
  index: number;
  /** `weighted`: by weight; `reprobe`: a retired task's periodic re-probe; `fallback`: only excluded or retired tasks were left. */
  reason: "weighted" | "reprobe" | "fallback";
}

/**
 * Chooses the next task (pure): every `reprobeEvery`-th draw re-probes the retired task probed
 * longest ago; otherwise a weighted draw over the tasks not excluded. When every weight is 0
 * (everything retired or excluded), the least recently attempted task is drawn. Null with no tasks.
 */
export function drawAdaptive<T extends { taskId: string }>(input: AdaptiveDrawInput<T>): AdaptiveDraw | null {
  const { tasks, history, policy, exclude } = input;
  if (tasks.length === 0) return null;
  if ((input.draws + 1) % policy.reprobeEvery === 0) {
    const index = stalest(
      tasks,
      history,
      (t) => !exclude.has(t.taskId) && isRetired(history.get(t.taskId), policy),
    );
    if (index !== null) return { index, reason: "reprobe" };
  }
  const weights = tasks.map((t) => (exclude.has(t.taskId) ? 0 : taskWeight(history.get(t.taskId), policy)));
  // An untried task is worth what a tried one is on average (1 before any was tried).
  const untried = untriedWeight(tasks, history, policy);
  tasks.forEach((t, i) => {
    if (weights[i] === 1 && windowPassRate(history.get(t.taskId), policy.windowSize) === null)
      weights[i] = untried;
  });
  let total = 0;
  for (const weight of weights) total += weight;
  if (total > 0) {
    let point = input.random * total;
    for (let i = 0; i < weights.length; i += 1) {
      point -= weights[i] as number;
      if (point < 0) return { index: i, reason: "weighted" };
    }
    // Rounding left the point at the end: the last task with weight.
    for (let i = weights.length - 1; i >= 0; i -= 1)
      if ((weights[i] as number) > 0) return { index: i, reason: "weighted" };
  }
  const index =
    stalest(tasks, history, (t) => !exclude.has(t.taskId)) ?? stalest(tasks, history, () => true) ?? 0;
  return { index, reason: "fallback" };
}

/** Mean weight of the tried, not retired tasks of the source; 1 when none was tried. */
export function untriedWeight(
  tasks: readonly { taskId: string }[],
  history: ReadonlyMap<string, TaskHistory>,
  policy: Policy,
): number {
  let sum = 0;
  let count = 0;
  for (const task of tasks) {
    const entry = history.get(task.taskId);
    if (windowPassRate(entry, policy.windowSize) === null || isRetired(entry, policy)) continue;
    sum += taskWeight(entry, policy);
    count += 1;
  }
  return count === 0 ? 1 : sum / count;
}

/** The matching task attempted longest ago (never attempted first; ties by position). */
function stalest<T extends { taskId: string }>(
  tasks: readonly T[],
  history: ReadonlyMap<string, TaskHistory>,
  matches: (task: T) => boolean,
): number | null {
  let best: number | null = null;
  let bestAt = Number.POSITIVE_INFINITY;
  for (let i = 0; i < tasks.length; i += 1) {
    const task = tasks[i] as T;
    if (!matches(task)) continue;
    const at = history.get(task.taskId)?.lastAttemptAtMs ?? Number.NEGATIVE_INFINITY;
    if (at < bestAt) {
      best = i;
      bestAt = at;
    }
  }
  return best;
}

/** A number in [0, 1) from a seed and a counter (mulberry32); pure. */
export function seededUnit(seed: number, counter: number): number {
  let t = (seed ^ Math.imul(counter + 1, 0x9e3779b9)) >>> 0;
  t = (t + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
