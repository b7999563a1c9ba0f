import type { JobPatch, JobRecord } from "@raas/engine";
import { buildUnnestInsert, buildUnnestUpdate } from "../sql/bulk-statements";
import type { SqlExecutor } from "../sql/sql-executor";
import { JOB_COLUMNS, JOB_ID_COLUMN, jobPatchAssignments, jobRowValues } from "./job-columns";

/**
 * Inserts jobs with one `INSERT … SELECT FROM unnest(…) ON CONFLICT DO NOTHING`: a job whose id
 * or job key is already stored (or earlier in the batch) is skipped.
 */
export async function insertJobRows(sql: SqlExecutor, jobs: readonly JobRecord[]): Promise<void> {
  if (jobs.length === 0) return;
  const statement = buildUnnestInsert("jobs", JOB_COLUMNS, jobs.map(jobRowValues), "ON CONFLICT DO NOTHING");
  await sql.execute(statement.sql, statement.params);
}

/**
 * Applies patches in order. The patches of each job are merged first (a later field wins, as in a
 * shallow spread), then jobs whose merged patch sets the same columns share one
 * `UPDATE … FROM unnest(…)`; several statements commit in one transaction. Patches of unknown
 * ids are ignored.
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
  const statements = [...byShape.values()].map(({ columns, rows }) =>
    buildUnnestUpdate("jobs", [JOB_ID_COLUMN, ...columns.map(([column]) => column)], rows),
  );
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
