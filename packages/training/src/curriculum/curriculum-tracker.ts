import type { Clock } from "@raas/engine";
import {
  ADAPTIVE_SAMPLING_DEFAULTS,
  PASS_RATE_BIN_EDGES,
  type TCurriculumSnapshot,
  type TCurriculumStats,
  type TStepTask,
  type TTaskSampling,
} from "@raas/shared";
import type { StepState } from "../batches/step-progress";
import type { GroupRecord, StepRecord } from "../ports/batch-store.port";
import type { CurriculumStore, SamplerState, TaskOutcomes } from "../ports/curriculum-store.port";
import { drawAdaptive, seededUnit } from "./adaptive-sampler";
import { summarizeTasks } from "./curriculum-summary";
import { emptyTaskHistory, outcomesOf, type TaskHistory, withOutcomes } from "./task-history";

/** Group states whose finished samples are counted in the history (each sample once). */
const COUNTED_STATES: ReadonlySet<GroupRecord["state"]> = new Set(["delivered", "dropped", "withheld"]);

/** One run's history of one task source, as the sampler reads it. */
interface SourceCache {
  run: Map<string, TaskHistory>;
  /** Across runs; loaded for steps whose policy reads it. */
  dataset: Map<string, TaskHistory> | null;
  sampler: SamplerState;
  isSamplerDirty: boolean;
}

/**
 * Where a step's tasks come from, for the history: the dataset's name, or `inline:<run id>` for
 * inline tasks — they have no identity beyond their run, so unrelated runs whose inline tasks share
 * ids never pool their pass rates (the dataset scope of an inline source is its run).
 */
function historyDatasetOf(step: Pick<StepRecord, "request" | "runId">): string {
  const { tasks } = step.request;
  return tasks.type === "dataset" ? tasks.dataset : `inline:${step.runId}`;
}

/** A step's task sampling (steps stored before it existed are uniform). */
export function taskSamplingOf(step: Pick<StepRecord, "request">): TTaskSampling {
  return step.request.taskSampling ?? { policy: "uniform" };
}

export interface CurriculumTrackerOptions {
  store: CurriculumStore;
  clock: Clock;
  /** The tasks of a step's source (null when it cannot be resolved now). */
  tasksOf: (step: StepRecord) => Promise<readonly TStepTask[] | null>;
}

/**
 * Keeps the batch system's per-task history and adaptive sampler state: records the finished
 * samples of groups as they finish (in memory and in the store), draws tasks for adaptive steps
 * from what it holds, and snapshots the run's pass-rate histogram as each step closes. Everything
 * it decides is stored, so a restarted system goes on with the same retired tasks and clock.
 */
export class CurriculumTracker {
  readonly #store: CurriculumStore;
  readonly #clock: Clock;
  readonly #tasksOf: CurriculumTrackerOptions["tasksOf"];
  readonly #sources = new Map<string, SourceCache>();
  /** Per step state: groups whose samples are counted already. */
  readonly #counted = new WeakMap<StepState, Set<string>>();
  readonly #snapshotted = new WeakSet<StepState>();

  constructor(options: CurriculumTrackerOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#tasksOf = options.tasksOf;
  }

  /** Loads the step's source history (again when `refresh`: other runs may have added to it). */
  async prepare(state: StepState, options: { refresh?: boolean } = {}): Promise<void> {
    const key = sourceKey(state.run.id, historyDatasetOf(state.step));
    const sampling = taskSamplingOf(state.step);
    const needsDataset = sampling.policy === "adaptive" && sampling.scope === "dataset";
    const known = this.#sources.get(key);
    if (known && !options.refresh && (known.dataset !== null || !needsDataset)) return;
    const dataset = historyDatasetOf(state.step);
    const [run, across, sampler] = await Promise.all([
      this.#store.listTaskHistory(dataset, state.run.id),
      needsDataset ? this.#store.listTaskHistory(dataset, null) : Promise.resolve(null),
      known ? Promise.resolve(known.sampler) : this.#store.getSamplerState(state.run.id, dataset),
    ]);
    this.#sources.set(key, {
      run: byTask(run),
      dataset: across ? byTask(across) : null,
      sampler: sampler ?? { draws: 0 },
      isSamplerDirty: known?.isSamplerDirty ?? false,
    });
  }

  /** Drops what it holds of a finished run (the store keeps it; `stats` reads from there). */
  forgetRun(runId: string): void {
    const prefix = sourceKey(runId, "");
    for (const key of [...this.#sources.keys()]) if (key.startsWith(prefix)) this.#sources.delete(key);
  }

  /** A step loaded from the store: what finished before is counted already. */
  attach(state: StepState): void {
    const counted = new Set(state.groups.filter((g) => COUNTED_STATES.has(g.state)).map((g) => g.id));
    this.#counted.set(state, counted);
    if (state.step.status !== "running") this.#snapshotted.add(state);
  }

  /**
   * The next task of an adaptive step (see `drawAdaptive`); tasks with a group running in the step
   * are drawn only when nothing else is left. Null when the source has no tasks.
   */
  draw(state: StepState, tasks: readonly TStepTask[]): TStepTask | null {
    const sampling = taskSamplingOf(state.step);
    if (sampling.policy !== "adaptive") throw new Error("draw: the step's task sampling is not adaptive");
    const source = this.#sources.get(sourceKey(state.run.id, historyDatasetOf(state.step)));
    const sampler = source?.sampler ?? { draws: 0 };
    const history = (sampling.scope === "dataset" ? source?.dataset : source?.run) ?? new Map();
    const exclude = new Set(state.groups.filter((g) => g.state === "running").map((g) => g.taskId));
    const seed = state.step.request.shuffleSeed ?? hashText(state.run.id);
    const choice = drawAdaptive({
      tasks,
      history,
      policy: sampling,
      draws: sampler.draws,
      exclude,
      random: seededUnit(seed, sampler.draws),
    });
    if (!choice) return null;
    sampler.draws += 1;
    if (source) source.isSamplerDirty = true;
    return tasks[choice.index] ?? null;
  }

  /**
   * After a change of the step: records the samples of groups that finished since the last call,
   * saves the sampler's clock, and snapshots the run once the step has closed.
   */
  async observe(state: StepState): Promise<void> {
    const dataset = historyDatasetOf(state.step);
    const source = this.#sources.get(sourceKey(state.run.id, dataset));
    const counted = this.#counted.get(state) ?? new Set<string>();
    this.#counted.set(state, counted);
    const outcomes: TaskOutcomes[] = [];
    for (const group of state.groups) {
      if (!COUNTED_STATES.has(group.state) || counted.has(group.id)) continue;
      counted.add(group.id);
      const rewards = group.members.filter((m) => m.status === "finished").map((m) => m.reward ?? 0);
      if (rewards.length > 0) outcomes.push({ taskId: group.taskId, outcomes: outcomesOf(rewards) });
    }
    if (outcomes.length > 0) {
      const atMs = this.#clock.now();
      await this.#store.recordOutcomes(dataset, state.run.id, outcomes, atMs);
      for (const map of [source?.run, source?.dataset])
        if (map) for (const o of outcomes) map.set(o.taskId, appended(map, o, atMs));
    }
    if (source?.isSamplerDirty) {
      source.isSamplerDirty = false;
      await this.#store.saveSamplerState(state.run.id, dataset, { ...source.sampler });
    }
    if (state.step.status !== "running" && !this.#snapshotted.has(state)) {
      this.#snapshotted.add(state);
      const snapshot = await this.#snapshot(state.run.id, state.step, this.#clock.now());
      if (snapshot) await this.#store.saveSnapshot(state.run.id, snapshot);
    }
  }

  /** The run's curriculum statistics: now (by its latest step's source) and one snapshot per closed step. */
  async stats(runId: string, steps: readonly StepRecord[]): Promise<TCurriculumStats> {
    const latest = steps.at(-1) ?? null;
    const sampling = latest ? taskSamplingOf(latest) : null;
    return {
      runId,
      sampling,
      windowSize: windowOf(sampling),
      binEdges: [...PASS_RATE_BIN_EDGES],
      current: latest ? await this.#snapshot(runId, latest, this.#clock.now()) : null,
      snapshots: await this.#store.listSnapshots(runId),
    };
  }

  async #snapshot(runId: string, step: StepRecord, atMs: number): Promise<TCurriculumSnapshot | null> {
    const tasks = await this.#tasksOf(step);
    if (!tasks) return null;
    const sampling = taskSamplingOf(step);
    const history = byTask(await this.#store.listTaskHistory(historyDatasetOf(step), runId));
    const summary = summarizeTasks(uniqueTasks(tasks), history, {
      windowSize: windowOf(sampling),
      retireAfterSolvedInARow: sampling.policy === "adaptive" ? sampling.retireAfterSolvedInARow : null,
    });
    return { ...summary, stepId: step.id, stepIndex: step.index, atMs };
  }
}

function windowOf(sampling: TTaskSampling | null): number {
  return sampling?.policy === "adaptive" ? sampling.windowSize : ADAPTIVE_SAMPLING_DEFAULTS.windowSize;
}

function appended(map: ReadonlyMap<string, TaskHistory>, o: TaskOutcomes, atMs: number): TaskHistory {
  return withOutcomes(map.get(o.taskId) ?? emptyTaskHistory(o.taskId), o.outcomes, atMs);
}

function byTask(rows: readonly TaskHistory[]): Map<string, TaskHistory> {
  return new Map(rows.map((row) => [row.taskId, row]));
}

function uniqueTasks(tasks: readonly TStepTask[]): { taskId: string }[] {
  return [...new Set(tasks.map((t) => t.taskId))].map((taskId) => ({ taskId }));
}

function sourceKey(runId: string, dataset: string): string {
  return `${runId}\u0000${dataset}`;
}

/** FNV-1a of a string: the draw seed of a step without `shuffleSeed`. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
