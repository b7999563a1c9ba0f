import type { TCurriculumSnapshot } from "@raas/shared";
import {
  type CurriculumStore,
  RECENT_OUTCOMES_KEPT,
  type SamplerState,
  type TaskHistory,
  type TaskOutcomes,
} from "@raas/training";
import type { PrismaClient } from "../generated/client";

/** `run_id` of the dataset-wide rows (a run id is never empty). */
const ACROSS_RUNS = "";
/** Rows per `INSERT` (3 parameters each). */
const ROWS_PER_STATEMENT = 2_000;

interface HistoryRow {
  task_id: string;
  attempts: number;
  successes: number;
  recent: string;
  solved_in_a_row: number;
  last_attempt_at_ms: number | null;
}

/**
 * The `CurriculumStore` of PGlite and PostgreSQL (`task_history`, `task_sampler_states`,
 * `curriculum_snapshots`). Shares the job store's client. Outcomes are appended by the database:
 * one `INSERT … ON CONFLICT DO UPDATE` adds the counts, appends to `recent` and trims it, and
 * works out `solved_in_a_row`, so two runs recording the same task at once both count (rows are
 * written in key order, so two such statements never deadlock).
 */
export class PrismaCurriculumStore implements CurriculumStore {
  readonly #prisma: PrismaClient;

  constructor(prisma: PrismaClient) {
    this.#prisma = prisma;
  }

  async listTaskHistory(dataset: string, runId: string | null): Promise<TaskHistory[]> {
    const rows = await this.#prisma.$queryRawUnsafe<HistoryRow[]>(
      `SELECT task_id, attempts, successes, recent, solved_in_a_row, last_attempt_at_ms
         FROM task_history WHERE dataset = $1 AND run_id = $2 ORDER BY task_id`,
      dataset,
      runId ?? ACROSS_RUNS,
    );
    return rows.map((row) => ({
      taskId: row.task_id,
      attempts: Number(row.attempts),
      successes: Number(row.successes),
      recent: row.recent,
      solvedInARow: Number(row.solved_in_a_row),
      lastAttemptAtMs: row.last_attempt_at_ms === null ? null : Number(row.last_attempt_at_ms),
    }));
  }

  async recordOutcomes(
    dataset: string,
    runId: string,
    outcomes: readonly TaskOutcomes[],
    atMs: number,
  ): Promise<void> {
    const merged = new Map<string, string>();
    for (const { taskId, outcomes: text } of outcomes)
      if (text.length > 0) merged.set(taskId, (merged.get(taskId) ?? "") + text);
    const rows = [...merged]
      .flatMap(([taskId, text]) => [
        [runId, taskId, text],
        [ACROSS_RUNS, taskId, text],
      ])
      .sort((a, b) =>
        a[0] === b[0] ? compare(a[1] as string, b[1] as string) : compare(a[0] as string, b[0] as string),
      );
    for (let from = 0; from < rows.length; from += ROWS_PER_STATEMENT) {
      const chunk = rows.slice(from, from + ROWS_PER_STATEMENT);
      const values = chunk.map((_, i) => `($${3 + i * 3}::text, $${4 + i * 3}::text, $${5 + i * 3}::text)`);
      await this.#prisma.$executeRawUnsafe(
        `INSERT INTO task_history AS h
           (dataset, run_id, task_id, attempts, successes, recent, solved_in_a_row, last_attempt_at_ms)
         SELECT $1::text, v.run_id, v.task_id, length(v.o), length(replace(v.o, '0', '')),
                right(v.o, ${RECENT_OUTCOMES_KEPT}), length(v.o) - length(rtrim(v.o, '1')), $2::float8
           FROM (VALUES ${values.join(", ")}) AS v(run_id, task_id, o)
         ON CONFLICT (dataset, run_id, task_id) DO UPDATE SET
           attempts = h.attempts + EXCLUDED.attempts,
           successes = h.successes + EXCLUDED.successes,
           recent = right(h.recent || EXCLUDED.recent, ${RECENT_OUTCOMES_KEPT}),
           solved_in_a_row = CASE WHEN EXCLUDED.solved_in_a_row = EXCLUDED.attempts
             THEN h.solved_in_a_row + EXCLUDED.attempts ELSE EXCLUDED.solved_in_a_row END,
           last_attempt_at_ms = GREATEST(h.last_attempt_at_ms, EXCLUDED.last_attempt_at_ms)`,
        dataset,
        atMs,
        ...chunk.flat(),
      );
    }
  }

  async getSamplerState(runId: string, dataset: string): Promise<SamplerState | null> {
    const rows = await this.#prisma.$queryRawUnsafe<{ draws: number }[]>(
      "SELECT draws FROM task_sampler_states WHERE run_id = $1 AND dataset = $2",
      runId,
      dataset,
    );
    const row = rows[0];
    return row ? { draws: Number(row.draws) } : null;
  }

  async saveSamplerState(runId: string, dataset: string, state: SamplerState): Promise<void> {
    await this.#prisma.$executeRawUnsafe(
      `INSERT INTO task_sampler_states (run_id, dataset, draws, updated_at_ms)
       VALUES ($1::text, $2::text, $3::int, $4::float8)
       ON CONFLICT (run_id, dataset) DO UPDATE SET draws = EXCLUDED.draws, updated_at_ms = EXCLUDED.updated_at_ms`,
      runId,
      dataset,
      state.draws,
      Date.now(),
    );
  }

  async saveSnapshot(runId: string, snapshot: TCurriculumSnapshot): Promise<void> {
    const { stepId, stepIndex, atMs, ...summary } = snapshot;
    await this.#prisma.$executeRawUnsafe(
      `INSERT INTO curriculum_snapshots (run_id, step_id, step_index, at_ms, summary)
       VALUES ($1::text, $2::text, $3::int, $4::float8, $5::jsonb)
       ON CONFLICT (run_id, step_id) DO UPDATE SET
         step_index = EXCLUDED.step_index, at_ms = EXCLUDED.at_ms, summary = EXCLUDED.summary`,
      runId,
      stepId,
      stepIndex,
      atMs,
      JSON.stringify(summary),
    );
  }

  async listSnapshots(runId: string): Promise<TCurriculumSnapshot[]> {
    const rows = await this.#prisma.$queryRawUnsafe<
      { step_id: string; step_index: number; at_ms: number; summary: unknown }[]
    >(
      `SELECT step_id, step_index, at_ms, summary FROM curriculum_snapshots
        WHERE run_id = $1 ORDER BY step_index, at_ms`,
      runId,
    );
    return rows.map((row) => {
      const summary = (typeof row.summary === "string" ? JSON.parse(row.summary) : row.summary) as Omit<
        TCurriculumSnapshot,
        "stepId" | "stepIndex" | "atMs"
      >;
      return { ...summary, stepId: row.step_id, stepIndex: Number(row.step_index), atMs: Number(row.at_ms) };
    });
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
