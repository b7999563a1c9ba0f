import {
  type BenchmarkResultRecord,
  type BenchmarkRunRecord,
  type BenchmarkRunStore,
  ZBenchmarkJsonObject,
  ZStoredTestOutcomes,
} from "@raas/engine";
import { parseJsonColumn } from "../codec/json-column";
import { type BenchmarkResult, type BenchmarkRun, Prisma, type PrismaClient } from "../generated/client";

/** A nullable JSON column: `null` is stored as SQL NULL, not the JSON literal. */
function json(value: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === null || value === undefined ? Prisma.DbNull : (value as Prisma.InputJsonValue);
}

/**
 * The `BenchmarkRunStore` adapter of PGlite and PostgreSQL: benchmark runs and their per-instance
 * results (SWE-Bench pages of the dashboard). Low volume, so everything goes through Prisma.
 * Shares the job store's client: `new PrismaBenchmarkRunStore(jobStore.prisma)`; closing is the
 * job store's business. A duplicate run id is rejected by the primary key (Prisma `P2002`).
 */
export class PrismaBenchmarkRunStore implements BenchmarkRunStore {
  readonly #prisma: PrismaClient;

  constructor(prisma: PrismaClient) {
    this.#prisma = prisma;
  }

  async createRun(run: Parameters<BenchmarkRunStore["createRun"]>[0]): Promise<void> {
    await this.#prisma.benchmarkRun.create({
      data: { ...run, config: json(run.config), totalCount: 0, resolvedCount: 0 },
    });
  }

  /**
   * Stores results (a result already stored for the instance is replaced) and refreshes the
   * run's total and resolved counts, in one transaction.
   */
  async recordResults(
    runId: string,
    results: readonly Omit<BenchmarkResultRecord, "runId">[],
  ): Promise<void> {
    await this.#prisma.$transaction([
      this.#prisma.benchmarkResult.deleteMany({
        where: { runId, instanceId: { in: results.map((result) => result.instanceId) } },
      }),
      this.#prisma.benchmarkResult.createMany({
        data: results.map((result) => ({
          ...result,
          runId,
          failToPass: json(result.failToPass),
          passToPass: json(result.passToPass),
          detail: json(result.detail),
        })),
      }),
      this.#prisma.$executeRaw`
        UPDATE "benchmark_runs" SET
          "total_count" = (SELECT count(*) FROM "benchmark_results" WHERE "run_id" = ${runId}),
          "resolved_count" = (SELECT count(*) FROM "benchmark_results" WHERE "run_id" = ${runId} AND "resolved")
        WHERE "id" = ${runId}`,
    ]);
  }

  async finishRun(runId: string, status: string, finishedAtMs: number): Promise<void> {
    await this.#prisma.benchmarkRun.update({ where: { id: runId }, data: { status, finishedAtMs } });
  }

  async getRun(runId: string): Promise<BenchmarkRunRecord | null> {
    const row = await this.#prisma.benchmarkRun.findUnique({ where: { id: runId } });
    if (!row) return null;
    return fromRunRow(row, (await this.#rewardsOf([runId])).get(runId));
  }

  /** Newest first. */
  async listRuns(filter: { model?: string; dataset?: string } = {}): Promise<BenchmarkRunRecord[]> {
    const rows = await this.#prisma.benchmarkRun.findMany({
      where: {
        ...(filter.model !== undefined && { model: filter.model }),
        ...(filter.dataset !== undefined && { dataset: filter.dataset }),
      },
      orderBy: [{ createdAtMs: "desc" }, { id: "desc" }],
    });
    const rewards = await this.#rewardsOf(rows.map((row) => row.id));
    return rows.map((row) => fromRunRow(row, rewards.get(row.id)));
  }

  /**
   * Per run, the count and mean of its results' numeric `detail.reward` (environment runs), read
   * when a run is: one aggregate over the runs asked for, no stored column to keep in step.
   */
  async #rewardsOf(runIds: readonly string[]): Promise<Map<string, RunRewards>> {
    if (runIds.length === 0) return new Map();
    const rows = await this.#prisma.$queryRaw<Array<{ runId: string; count: number; mean: number }>>`
      SELECT "run_id" AS "runId", count(*)::int AS "count", avg(("detail"->>'reward')::float8) AS "mean"
      FROM "benchmark_results"
      WHERE "run_id" IN (${Prisma.join([...runIds])}) AND jsonb_typeof("detail"->'reward') = 'number'
      GROUP BY "run_id"`;
    return new Map(
      rows.map((row) => [row.runId, { rewardCount: Number(row.count), meanReward: Number(row.mean) }]),
    );
  }

  /** Ordered by instance id. */
  async listResults(runId: string): Promise<BenchmarkResultRecord[]> {
    const rows = await this.#prisma.benchmarkResult.findMany({
      where: { runId },
      orderBy: { instanceId: "asc" },
    });
    return rows.map(fromResultRow);
  }
}

interface RunRewards {
  rewardCount: number;
  meanReward: number | null;
}

const NO_REWARDS: RunRewards = { rewardCount: 0, meanReward: null };

function fromRunRow(row: BenchmarkRun, rewards: RunRewards = NO_REWARDS): BenchmarkRunRecord {
  const site = { table: "benchmark_runs", column: "config", rowId: row.id };
  return { ...row, ...rewards, config: parseJsonColumn(ZBenchmarkJsonObject, row.config, site) };
}

function fromResultRow(row: BenchmarkResult): BenchmarkResultRecord {
  const site = (column: string) => ({
    table: "benchmark_results",
    column,
    rowId: `${row.runId}/${row.instanceId}`,
  });
  return {
    ...row,
    failToPass: parseJsonColumn(ZStoredTestOutcomes, row.failToPass, site("fail_to_pass")),
    passToPass: parseJsonColumn(ZStoredTestOutcomes, row.passToPass, site("pass_to_pass")),
    detail: parseJsonColumn(ZBenchmarkJsonObject, row.detail, site("detail")),
  };
}
