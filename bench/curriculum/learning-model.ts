// The bench's simulated learner (a labelled test double, not a model): each task has a base
// success probability; every time one of its groups is handed to the trainer (trained on), its
// logit rises by `learningRate`. Tasks span never-solved to always-solved, with a learnable middle.
import { createRandom } from "../scale/random";

export interface SimTask {
  taskId: string;
  /** Logit of the success probability before any training. */
  baseLogit: number;
}

/** Shares of the pool by base success probability (low, high). */
const TASK_MIX: readonly { share: number; low: number; high: number }[] = [
  { share: 0.4, low: 0.0005, high: 0.02 },
  { share: 0.15, low: 0.02, high: 0.2 },
  { share: 0.15, low: 0.2, high: 0.8 },
  { share: 0.3, low: 0.9, high: 0.995 },
];

const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** `count` tasks in the mix above, in a seeded order. */
export function buildSimTasks(count: number, seed: number): SimTask[] {
  const random = createRandom(seed);
  const tasks: SimTask[] = [];
  for (const band of TASK_MIX) {
    const n = Math.round(band.share * count);
    for (let i = 0; i < n && tasks.length < count; i += 1)
      tasks.push({ taskId: "", baseLogit: logit(band.low + (band.high - band.low) * random()) });
  }
  for (let i = tasks.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [tasks[i], tasks[j]] = [tasks[j] as SimTask, tasks[i] as SimTask];
  }
  return tasks.map((task, i) => ({ ...task, taskId: `task-${String(i).padStart(5, "0")}` }));
}

export class LearningModel {
  readonly #base = new Map<string, number>();
  readonly #trained = new Map<string, number>();
  #trainedTotal = 0;

  /**
   * `learningRate`: logit gained per time the task itself was trained on; `transferRate`: logit
   * every task gains per group trained on per task of the pool (general ability improving).
   */
  constructor(
    tasks: readonly SimTask[],
    readonly learningRate: number,
    readonly transferRate: number,
  ) {
    for (const task of tasks) this.#base.set(task.taskId, task.baseLogit);
  }

  successProbability(taskId: string): number {
    const own = this.learningRate * (this.#trained.get(taskId) ?? 0);
    const transfer = (this.transferRate * this.#trainedTotal) / Math.max(1, this.#base.size);
    return sigmoid((this.#base.get(taskId) ?? 0) + own + transfer);
  }

  /** The trainer took one of the task's groups. */
  train(taskId: string): void {
    this.#trained.set(taskId, (this.#trained.get(taskId) ?? 0) + 1);
    this.#trainedTotal += 1;
  }

  trainedTimes(taskId: string): number {
    return this.#trained.get(taskId) ?? 0;
  }
}

/** Generated tokens of one trajectory: successes 300–900, failures 1.5× as long (failing agents flail). */
export function trajectoryTokens(isSuccess: boolean, random: () => number): number {
  const tokens = 300 + Math.floor(600 * random());
  return isSuccess ? tokens : Math.round(tokens * 1.5);
}
