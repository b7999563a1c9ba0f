// Fills the store fast for the bench: trajectories [from, to) are copies of the `templates`
// trajectories loaded before through the real insert path (same turn and tool-call rows, so the
// same bytes per trajectory), each placed in its own run/step/group/task like a real one. Done by
// the server (INSERT … SELECT over generate_series) in chunks, since loading a million through
// the client would take the bench's whole budget; the insert rate is measured separately.
// The secondary indexes are dropped for the copy and built again afterwards (the usual bulk-load
// order: one sorted build instead of a million random index updates, and far less WAL), so the
// measured inserts that follow still go into fully indexed tables.
import pg from "pg";
import { LAYOUT } from "./synthetic-trajectories";

const CHUNK = 25_000;

const jobIdSql = (expr: string) => `'job_bench_' || lpad((${expr})::text, 8, '0')`;

export async function bulkCopyTrajectories(
  databaseUrl: string,
  templates: number,
  from: number,
  to: number,
  onProgress: (done: number) => void,
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SET synchronous_commit = off");
    await client.query("SET maintenance_work_mem = '512MB'");
    const indexes = await dropSecondaryIndexes(client);
    for (let a = from; a < to; a += CHUNK) {
      const b = Math.min(to, a + CHUNK);
      // step = i / perStep, run = step % runs, group = (i % perStep) / groupSize, slot = i % groupSize
      const place = `
        (i / ${LAYOUT.perStep}) AS step,
        (i / ${LAYOUT.perStep}) % ${LAYOUT.runs} AS run,
        (i % ${LAYOUT.perStep}) / ${LAYOUT.groupSize} AS grp,
        i % ${LAYOUT.groupSize} AS slot`;
      await client.query("BEGIN");
      await client.query(
        `INSERT INTO jobs (id, job_key, kind, status, stage, priority, group_id, batch_id, payload, metadata, timeouts_ms,
                           failure_kind, failure_stage, failure_message, reward, trainable, result, queue_ms, init_ms,
                           run_ms, eval_ms, attempts, created_at_ms, updated_at_ms, finished_at_ms, run_id, task_id)
         SELECT ${jobIdSql("p.i")},
                'grp_bench_' || lpad(p.step::text, 7, '0') || '_' || lpad(p.grp::text, 2, '0') || ':' || p.slot || ':0',
                (ARRAY['math','code','swe','stem'])[p.run % 4 + 1], t.status, t.stage, 0,
                'grp_bench_' || lpad(p.step::text, 7, '0') || '_' || lpad(p.grp::text, 2, '0'), NULL, t.payload,
                jsonb_build_object('runId', 'run_bench_' || lpad(p.run::text, 3, '0'),
                                   'stepId', 'stp_bench_' || lpad(p.step::text, 7, '0'),
                                   'stepIndex', p.step / ${LAYOUT.runs},
                                   'taskId', 'task-' || (p.run % 4) || '-' || lpad(((p.step * 16 + p.grp) % ${LAYOUT.tasksPerRun})::text, 5, '0'),
                                   'slot', p.slot),
                NULL, t.failure_kind, t.failure_stage, t.failure_message, t.reward, t.trainable, t.result,
                t.queue_ms, t.init_ms, t.run_ms, t.eval_ms, 1,
                ${Date.UTC(2026, 9, 1)} + p.i * 50.0, ${Date.UTC(2026, 9, 1)} + p.i * 50.0 + 3000,
                ${Date.UTC(2026, 9, 1)} + p.i * 50.0 + 3000,
                'run_bench_' || lpad(p.run::text, 3, '0'),
                'task-' || (p.run % 4) || '-' || lpad(((p.step * 16 + p.grp) % ${LAYOUT.tasksPerRun})::text, 5, '0')
         FROM (SELECT i, ${place} FROM generate_series($1::int, $2::int - 1) AS i) AS p
         JOIN jobs t ON t.id = ${jobIdSql(`p.i % ${templates}`)}`,
        [a, b],
      );
      await client.query(
        `INSERT INTO turns (job_id, index, prompt_ids, response_ids, logprobs, prompt_tokens, response_tokens, backend_id,
                            weight_version, weight_version_spans, cached_prompt_tokens, latency_ms, finish_reason, text,
                            created_at_ms, prompt_prefix_tokens, prompt_prefix_hash)
         SELECT ${jobIdSql("i")}, t.index, t.prompt_ids, t.response_ids, t.logprobs, t.prompt_tokens, t.response_tokens,
                t.backend_id, t.weight_version, t.weight_version_spans, t.cached_prompt_tokens, t.latency_ms,
                t.finish_reason, t.text, t.created_at_ms, t.prompt_prefix_tokens, t.prompt_prefix_hash
         FROM generate_series($1::int, $2::int - 1) AS i
         JOIN turns t ON t.job_id = ${jobIdSql(`i % ${templates}`)}`,
        [a, b],
      );
      await client.query(
        `INSERT INTO tool_calls (job_id, turn_index, index, name, arguments, output, exit_code, duration_ms, is_error, created_at_ms)
         SELECT ${jobIdSql("i")}, t.turn_index, t.index, t.name, t.arguments, t.output, t.exit_code, t.duration_ms,
                t.is_error, t.created_at_ms
         FROM generate_series($1::int, $2::int - 1) AS i
         JOIN tool_calls t ON t.job_id = ${jobIdSql(`i % ${templates}`)}`,
        [a, b],
      );
      await client.query("COMMIT");
      onProgress(b);
    }
    for (const definition of indexes) await client.query(definition);
  } finally {
    await client.end();
  }
}

/**
 * Drops the indexes of the trajectory tables that back no constraint (primary keys and unique
 * constraints stay, the copy's joins use them) and returns their definitions to build them again.
 */
async function dropSecondaryIndexes(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `SELECT i.indexname AS name, i.indexdef AS definition
     FROM pg_indexes i
     WHERE i.schemaname = current_schema() AND i.tablename IN ('jobs', 'turns', 'tool_calls')
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  );
  for (const { name } of rows) await client.query(`DROP INDEX "${name}"`);
  return rows.map((row) => row.definition);
}
