import type { JobPatch, JobRecord, JobTransitionWrite } from "@raas/engine";
import {
  buildUnnestCompareAndSet,
  buildUnnestInsert,
  buildUnnestUpdate,
  type ColumnSpec,
  jsonParam,
} from "../sql/bulk-statements";
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

const EXPECTED_VERSION: ColumnSpec = { name: "expected_version", type: "int4" };
const VERSION: ColumnSpec = { name: "version", type: "int4" };
const HANDOFF: ColumnSpec = { name: "handoff", type: "jsonb" };

/**
 * Compare-and-set transitions: writes that set the same columns share one `UPDATE … FROM unnest(…)
 * WHERE id = v.id AND version = v.expected_version RETURNING id`, all in one transaction; the ids
 * not returned lost. Several writes of one job in one call are applied in order, in rounds.
 */
export async function transitionJobRows(
  sql: SqlExecutor,
  writes: readonly JobTransitionWrite[],
): Promise<string[]> {
  if (writes.length === 0) return [];
  const rounds: JobTransitionWrite[][] = [];
  const roundOf = new Map<string, number>();
  for (const write of writes) {
    const round = (roundOf.get(write.patch.id) ?? -1) + 1;
    roundOf.set(write.patch.id, round);
    if (round === rounds.length) rounds.push([]);
    rounds[round]?.push(write);
  }
  const statements = rounds.flatMap((round) => compareAndSetStatements(round));
  const run = async (tx: SqlExecutor) => {
    const lost = new Set<string>();
    for (const { statement, ids } of statements) {
      const won = new Set(
        (await tx.query<{ key: string }>(statement.sql, statement.params)).map((row) => row.key),
      );
      for (const id of ids) if (!won.has(id)) lost.add(id);
    }
    return [...lost];
  };
  return statements.length === 1 ? run(sql) : sql.transaction(run);
}

function compareAndSetStatements(writes: readonly JobTransitionWrite[]) {
  const byShape = new Map<string, { columns: ColumnSpec[]; rows: unknown[][] }>();
  for (const { patch, expectedVersion, version, handoff } of writes) {
    const assignments = jobPatchAssignments(patch);
    if (handoff !== undefined) assignments.push([HANDOFF, jsonParam(handoff)]);
    const columns = [JOB_ID_COLUMN, EXPECTED_VERSION, VERSION, ...assignments.map(([column]) => column)];
    const shape = columns.map((column) => column.name).join(",");
    const entry = byShape.get(shape) ?? { columns, rows: [] };
    entry.rows.push([patch.id, expectedVersion, version, ...assignments.map(([, value]) => value)]);
    byShape.set(shape, entry);
  }
  return [...byShape.values()].map(({ columns, rows }) => ({
    statement: buildUnnestCompareAndSet("jobs", columns, rows, "version"),
    ids: rows.map((row) => row[0] as string),
  }));
}

/** Merges the patches of each job in order; one merged patch per job. */
function mergePatches(patches: readonly JobPatch[]): JobPatch[] {
  const merged = new Map<string, Record<string, unknown>>();
  for (const patch of patches) {
    const target = merged.get(patch.id) ?? {};
    for (const [field, value] of Object.entries(patch)) if (value !== undefined) target[field] = value;
    merged.set(patch.id, target);
  }
  return [...merged.values()] as JobPatch[];
}
