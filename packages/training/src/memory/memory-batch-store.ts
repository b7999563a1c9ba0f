import { requestFailure, type TPolicyState } from "@raas/shared";
import type { BatchStore, GroupRecord, RunRecord, StepRecord } from "../ports/batch-store.port";

type Versioned = { id: string; version: number };

/**
 * A `BatchStore` in process memory (tests, `RAAS_STORE=memory`). Records are deep-copied in and
 * out, as a database round trip would; saves are compare-and-set on `version`.
 */
export class MemoryBatchStore implements BatchStore {
  readonly #runs = new Map<string, RunRecord>();
  readonly #steps = new Map<string, StepRecord>();
  readonly #groups = new Map<string, GroupRecord>();
  readonly #policies = new Map<string, TPolicyState>();

  async insertRun(run: RunRecord): Promise<void> {
    insert(this.#runs, run, "run");
  }
  async getRun(id: string): Promise<RunRecord | null> {
    return copy(this.#runs.get(id));
  }
  async findRunByKey(runKey: string): Promise<RunRecord | null> {
    return copy([...this.#runs.values()].find((r) => r.runKey === runKey));
  }
  async listRuns(limit: number): Promise<RunRecord[]> {
    return [...this.#runs.values()]
      .sort((a, b) => b.createdAtMs - a.createdAtMs || (a.id < b.id ? 1 : -1))
      .slice(0, limit)
      .map(clone);
  }
  async saveRun(run: RunRecord): Promise<boolean> {
    return save(this.#runs, run);
  }

  async insertStep(step: StepRecord): Promise<void> {
    insert(this.#steps, step, "step");
  }
  async getStep(id: string): Promise<StepRecord | null> {
    return copy(this.#steps.get(id));
  }
  async findStepByKey(runId: string, stepKey: string): Promise<StepRecord | null> {
    return copy([...this.#steps.values()].find((s) => s.runId === runId && s.stepKey === stepKey));
  }
  async listSteps(runId: string): Promise<StepRecord[]> {
    return [...this.#steps.values()]
      .filter((s) => s.runId === runId)
      .sort((a, b) => a.index - b.index)
      .map(clone);
  }
  async listRunningSteps(): Promise<StepRecord[]> {
    return [...this.#steps.values()].filter((s) => s.status === "running").map(clone);
  }
  async saveStep(step: StepRecord): Promise<boolean> {
    return save(this.#steps, step);
  }

  async insertGroups(groups: readonly GroupRecord[]): Promise<void> {
    for (const group of groups) insert(this.#groups, group, "group");
  }
  async getGroup(id: string): Promise<GroupRecord | null> {
    return copy(this.#groups.get(id));
  }
  async listGroups(stepId: string): Promise<GroupRecord[]> {
    return [...this.#groups.values()]
      .filter((g) => g.stepId === stepId)
      .sort(byCreation)
      .map(clone);
  }
  async listCarriedGroups(runId: string): Promise<GroupRecord[]> {
    return [...this.#groups.values()]
      .filter(
        (g) =>
          g.runId === runId &&
          g.state === "carried" &&
          g.carriedIntoGroupId === null &&
          g.expiredInStepId === null,
      )
      .sort(byCreation)
      .map(clone);
  }
  async saveGroup(group: GroupRecord): Promise<boolean> {
    return save(this.#groups, group);
  }

  async listPolicyStates(): Promise<TPolicyState[]> {
    return [...this.#policies.values()]
      .sort((a, b) => (a.policyId < b.policyId ? -1 : a.policyId > b.policyId ? 1 : 0))
      .map(clone);
  }
  async savePolicyState(state: TPolicyState): Promise<void> {
    this.#policies.set(state.policyId, clone(state));
  }

  async close(): Promise<void> {}
}

function insert<T extends Versioned>(map: Map<string, T>, record: T, what: string): void {
  if (map.has(record.id)) throw requestFailure("CONFLICT", `a ${what} with id "${record.id}" already exists`);
  map.set(record.id, clone(record));
}

function save<T extends Versioned>(map: Map<string, T>, record: T): boolean {
  const stored = map.get(record.id);
  if (!stored || stored.version !== record.version) return false;
  record.version += 1;
  map.set(record.id, clone(record));
  return true;
}

function byCreation(a: GroupRecord, b: GroupRecord): number {
  return a.createdAtMs - b.createdAtMs || (a.id < b.id ? -1 : 1);
}

const clone = <T>(value: T): T => structuredClone(value);
const copy = <T>(value: T | undefined): T | null => (value === undefined ? null : clone(value));
