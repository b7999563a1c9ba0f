import type { TCurriculumSnapshot } from "@raas/shared";
import { emptyTaskHistory, type TaskHistory, withOutcomes } from "../curriculum/task-history";
import type { CurriculumStore, SamplerState, TaskOutcomes } from "../ports/curriculum-store.port";

/** Key of the dataset-wide history rows (a run id is never empty). */
const ACROSS_RUNS = "";

/** A `CurriculumStore` in process memory (tests, benches, `RAAS_STORE=memory`); copies in and out. */
export class MemoryCurriculumStore implements CurriculumStore {
  readonly #history = new Map<string, Map<string, TaskHistory>>();
  readonly #samplers = new Map<string, SamplerState>();
  readonly #snapshots = new Map<string, Map<string, TCurriculumSnapshot>>();

  async listTaskHistory(dataset: string, runId: string | null): Promise<TaskHistory[]> {
    const rows = this.#history.get(key(dataset, runId ?? ACROSS_RUNS));
    return rows ? [...rows.values()].map((row) => ({ ...row })) : [];
  }

  async recordOutcomes(
    dataset: string,
    runId: string,
    outcomes: readonly TaskOutcomes[],
    atMs: number,
  ): Promise<void> {
    for (const scope of [runId, ACROSS_RUNS]) {
      const k = key(dataset, scope);
      const rows = this.#history.get(k) ?? new Map<string, TaskHistory>();
      this.#history.set(k, rows);
      for (const { taskId, outcomes: text } of outcomes)
        rows.set(taskId, withOutcomes(rows.get(taskId) ?? emptyTaskHistory(taskId), text, atMs));
    }
  }

  async getSamplerState(runId: string, dataset: string): Promise<SamplerState | null> {
    const state = this.#samplers.get(key(dataset, runId));
    return state ? { ...state } : null;
  }

  async saveSamplerState(runId: string, dataset: string, state: SamplerState): Promise<void> {
    this.#samplers.set(key(dataset, runId), { ...state });
  }

  async saveSnapshot(runId: string, snapshot: TCurriculumSnapshot): Promise<void> {
    const rows = this.#snapshots.get(runId) ?? new Map<string, TCurriculumSnapshot>();
    this.#snapshots.set(runId, rows);
    rows.set(snapshot.stepId, structuredClone(snapshot));
  }

  async listSnapshots(runId: string): Promise<TCurriculumSnapshot[]> {
    return [...(this.#snapshots.get(runId)?.values() ?? [])]
      .sort((a, b) => a.stepIndex - b.stepIndex || a.atMs - b.atMs)
      .map((s) => structuredClone(s));
  }
}

function key(dataset: string, runId: string): string {
  return `${runId}\u0000${dataset}`;
}
