import { type TTeacherScore, ZTeacher } from "@raas/shared";
import { parseJsonColumn } from "../codec/json-column";
import { decodeLogprobs, encodeLogprobs } from "../codec/token-codec";
import type { TeacherScore as TeacherScoreRow } from "../generated/client";
import {
  buildInsert,
  byteaParam,
  type ColumnSpec,
  jsonParam,
  rowsPerStatement,
} from "../sql/bulk-statements";
import type { SqlExecutor } from "../sql/sql-executor";

const TEACHER_SCORE_COLUMNS: readonly ColumnSpec[] = [
  { name: "job_id", type: "text" },
  { name: "teacher", type: "jsonb" },
  { name: "backend_id", type: "text" },
  { name: "scored_tokens", type: "int4" },
  { name: "logprobs", type: "bytea" },
  { name: "missing_reason", type: "text" },
  { name: "created_at_ms", type: "float8" },
];

const REPLACE_ON_JOB = `ON CONFLICT ("job_id") DO UPDATE SET ${TEACHER_SCORE_COLUMNS.slice(1)
  .map((column) => `"${column.name}" = EXCLUDED."${column.name}"`)
  .join(", ")}`;

/**
 * Stores teacher scores, one row per job: a later score of a job (a retried flush, a restarted
 * attempt) replaces the earlier one. The first token's missing logprob is stored as NaN, the
 * Float32 encoding having no null.
 */
export async function upsertTeacherScoreRows(
  sql: SqlExecutor,
  scores: readonly TTeacherScore[],
): Promise<void> {
  const byJob = new Map(scores.map((score) => [score.jobId, score]));
  if (byJob.size === 0) return;
  const rows = [...byJob.values()].map((score) => [
    score.jobId,
    jsonParam(score.teacher),
    score.backendId,
    score.scoredTokens,
    score.logprobs === null ? null : byteaParam(encodeLogprobs(score.logprobs.map((v) => v ?? Number.NaN))),
    score.missingReason,
    score.createdAtMs,
  ]);
  const perStatement = rowsPerStatement(TEACHER_SCORE_COLUMNS.length);
  await sql.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += perStatement) {
      const statement = buildInsert(
        "teacher_scores",
        TEACHER_SCORE_COLUMNS,
        rows.slice(i, i + perStatement),
        REPLACE_ON_JOB,
      );
      await tx.execute(statement.sql, statement.params);
    }
  });
}

/** A stored row as the job's teacher score. */
export function fromTeacherScoreRow(row: TeacherScoreRow): TTeacherScore {
  const site = { table: "teacher_scores", column: "teacher", rowId: row.jobId };
  return {
    jobId: row.jobId,
    teacher: parseJsonColumn(ZTeacher, row.teacher, site),
    backendId: row.backendId,
    scoredTokens: row.scoredTokens,
    logprobs:
      row.logprobs === null ? null : decodeLogprobs(row.logprobs).map((v) => (Number.isNaN(v) ? null : v)),
    missingReason: row.missingReason,
    createdAtMs: row.createdAtMs,
  };
}
