import { requestFailure } from "@raas/shared";
import type {
  BenchmarkResultRecord,
  BenchmarkRunFilter,
  BenchmarkRunRecord,
  BenchmarkRunStore,
  NewBenchmarkResult,
  NewBenchmarkRun,
} from "../ports/benchmark-run-store.port";

/**
 * A `BenchmarkRunStore` in process memory: for tests and `RAAS_STORE=memory`. Nothing survives a
 * restart. Records are deep-copied in and out, as a JSON round trip through a database would.
 */
export class MemoryBenchmarkRunStore implements BenchmarkRunStore {
  readonly #runs = new Map<string, BenchmarkRunRecord>();
  /** Results by run id, then by instance id. */
  readonly #results = new Map<string, Map<string, BenchmarkResultRecord>>();

  async createRun(run: NewBenchmarkRun): Promise<void> {
    if (this.#runs.has(run.id)) {
      throw requestFailure("CONFLICT", `a benchmark run with id "${run.id}" already exists`);
    }
    this.#runs.set(
      run.id,
      structuredClone({
        ...run,
        totalCount: 0,
        resolvedCount: 0,
        rewardCount: 0,
        meanReward: null,
        finishedAtMs: null,
      }),
    );
    this.#results.set(run.id, new Map());
  }

  async recordResults(runId: string, results: readonly NewBenchmarkResult[]): Promise<void> {
    const run = this.#requireRun(runId);
    const stored = this.#results.get(runId) ?? new Map<string, BenchmarkResultRecord>();
    for (const result of results) stored.set(result.instanceId, structuredClone({ ...result, runId }));
    this.#results.set(runId, stored);
    const all = [...stored.values()];
    run.totalCount = all.length;
    run.resolvedCount = all.filter((result) => result.resolved).length;
    const rewards = all.flatMap((result) =>
      typeof result.detail?.reward === "number" ? [result.detail.reward] : [],
    );
    run.rewardCount = rewards.length;
    run.meanReward =
      rewards.length === 0 ? null : rewards.reduce((sum, reward) => sum + reward, 0) / rewards.length;
  }

  async finishRun(runId: string, status: string, finishedAtMs: number): Promise<void> {
    const run = this.#requireRun(runId);
    run.status = status;
    run.finishedAtMs = finishedAtMs;
  }

  async getRun(runId: string): Promise<BenchmarkRunRecord | null> {
    const run = this.#runs.get(runId);
    return run ? structuredClone(run) : null;
  }

  async listRuns(filter: BenchmarkRunFilter = {}): Promise<BenchmarkRunRecord[]> {
    return [...this.#runs.values()]
      .filter(
        (run) =>
          (filter.model === undefined || run.model === filter.model) &&
          (filter.dataset === undefined || run.dataset === filter.dataset),
      )
      .sort((a, b) => b.createdAtMs - a.createdAtMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map((run) => structuredClone(run));
  }

  async listResults(runId: string): Promise<BenchmarkResultRecord[]> {
    return [...(this.#results.get(runId)?.values() ?? [])]
      .sort((a, b) => (a.instanceId < b.instanceId ? -1 : a.instanceId > b.instanceId ? 1 : 0))
      .map((result) => structuredClone(result));
  }

  #requireRun(runId: string): BenchmarkRunRecord {
    const run = this.#runs.get(runId);
    if (!run) throw requestFailure("NOT_FOUND", `no benchmark run with id "${runId}"`);
    return run;
  }
}
