import type { JobPatch, JobRecord } from "@raas/engine";
import { buildInsert, buildUpdateFromValues, rowsPerStatement } from "../sql/bulk-statements";
import type { SqlExecutor } from "../sql/sql-executor";
import { JOB_COLUMNS, JOB_ID_COLUMN, jobPatchAssignments, jobRowValues } from "./job-columns";

/**
 * Inserts jobs with one multi-row `INSERT … ON CONFLICT DO NOTHING` per ~1 000 rows, in one
 * transaction: a job whose id or job key is already stored (or repeated in the batch) is skipped.
 */
export async function insertJobRows(sql: SqlExecutor, jobs: readonly JobRecord[]): Promise<void> {
  if (jobs.length === 0) return;
  const rows = jobs.map(jobRowValues);
  const perStatement = rowsPerStatement(JOB_COLUMNS.length);
  if (rows.length <= perStatement) {
    const statement = buildInsert("jobs", JOB_COLUMNS, rows, "ON CONFLICT DO NOTHING");
    await sql.execute(statement.sql, statement.params);
    return;
  }
  await sql.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += perStatement) {
      const statement = buildInsert(
        "jobs",
        JOB_COLUMNS,
        rows.slice(i, i + perStatement),
        "ON CONFLICT DO NOTHING",
      );
      await tx.execute(statement.sql, statement.params);
    }
  });
}

/**
 * Applies patches in order. The patches of each job are merged first (a later field wins, as in a
 * shallow spread), then jobs whose merged patch sets the same columns share one
 * `UPDATE … FROM (VALUES …)`; everything commits in one transaction. Patches of unknown ids are
 * ignored.
 */
export async function updateJobRows(sql: SqlExecutor, patches: readonly JobPatch[]): Promise<void> {
  const byShape = new Map<string, { columns: ReturnType<typeof jobPatchAssignments>; rows: unknown[][] }>();
  for (const patch of mergePatches(patches)) {
    const assignments = jobPatchAssignments(patch);
    if (assignments.length === 0) continue;
    const shape = assignments.map(([column]) => column.name).join(",");
    const entry = byShape.get(shape) ?? { columns: assignments, rows: [] };
    entry.rows.push([patch.id, ...assignments.map(([, value]) => value)]);
    byShape.set(shape, entry);
  }
  const statements = [...byShape.values()].flatMap(({ columns, rows }) => {
    const specs = [JOB_ID_COLUMN, ...columns.map(([column]) => column)];
    const perStatement = rowsPerStatement(specs.length);
    const out = [];
    for (let i = 0; i < rows.length; i += perStatement) {
      out.push(buildUpdateFromValues("jobs", specs, rows.slice(i, i + perStatement)));
    }
    return out;
  });
  if (statements.length === 0) return;
  if (statements.length === 1) {
    const [only] = statements;
    await sql.execute(only!.sql, only!.params);
    return;
  }
  await sql.transaction(async (tx) => {
    for (const statement of statements) await tx.execute(statement.sql, statement.params);
  });
}

/** Merges the patches of each job in order; one merged patch per job. */
export function mergePatches(patches: readonly JobPatch[]): JobPatch[] {
  const merged = new Map<string, Record<string, unknown>>();
  for (const patch of patches) {
    const target = merged.get(patch.id) ?? {};
    for (const [field, value] of Object.entries(patch)) if (value !== undefined) target[field] = value;
    merged.set(patch.id, target);
  }
  return [...merged.values()] as JobPatch[];
}
