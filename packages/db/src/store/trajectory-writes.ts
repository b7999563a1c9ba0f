import type { TSandboxEvent, TToolCall, TTurn } from "@raas/shared";
import { type PreviousTurnIds, splitPrompt } from "../codec/prompt-delta-codec";
import { encodeLogprobs, encodeTokenIds } from "../codec/token-codec";
import {
  buildInsert,
  byteaParam,
  type ColumnSpec,
  jsonParam,
  rowsPerStatement,
} from "../sql/bulk-statements";
import type { SqlExecutor } from "../sql/sql-executor";

const TURN_COLUMNS: readonly ColumnSpec[] = [
  { name: "job_id", type: "text" },
  { name: "index", type: "int4" },
  { name: "prompt_ids", type: "bytea" },
  { name: "response_ids", type: "bytea" },
  { name: "logprobs", type: "bytea" },
  { name: "prompt_tokens", type: "int4" },
  { name: "response_tokens", type: "int4" },
  { name: "backend_id", type: "text" },
  { name: "weight_version", type: "text" },
  { name: "weight_version_spans", type: "jsonb" },
  { name: "cached_prompt_tokens", type: "int4" },
  { name: "latency_ms", type: "float8" },
  { name: "finish_reason", type: "text" },
  { name: "text", type: "text" },
  { name: "created_at_ms", type: "float8" },
  { name: "prompt_prefix_tokens", type: "int4" },
  { name: "prompt_prefix_hash", type: "int4" },
  { name: "sampling", type: "jsonb" },
  { name: "top_logprobs", type: "jsonb" },
];

const TOOL_CALL_COLUMNS: readonly ColumnSpec[] = [
  { name: "job_id", type: "text" },
  { name: "turn_index", type: "int4" },
  { name: "index", type: "int4" },
  { name: "name", type: "text" },
  { name: "arguments", type: "jsonb" },
  { name: "output", type: "text" },
  { name: "exit_code", type: "int4" },
  { name: "duration_ms", type: "float8" },
  { name: "is_error", type: "bool" },
  { name: "reward", type: "float8" },
  { name: "created_at_ms", type: "float8" },
];

const SANDBOX_EVENT_COLUMNS: readonly ColumnSpec[] = [
  { name: "sandbox_id", type: "text" },
  { name: "job_id", type: "text" },
  { name: "type", type: "text" },
  { name: "state", type: "text" },
  { name: "detail", type: "jsonb" },
  { name: "at_ms", type: "float8" },
];

function turnValues(turn: TTurn, previous: PreviousTurnIds | undefined): unknown[] {
  const prompt = splitPrompt(turn.promptIds, previous);
  return [
    turn.jobId,
    turn.index,
    byteaParam(encodeTokenIds(prompt.suffixIds)),
    byteaParam(encodeTokenIds(turn.responseIds)),
    byteaParam(encodeLogprobs(turn.logprobs)),
    turn.promptIds.length,
    turn.responseIds.length,
    turn.backendId,
    turn.weightVersion,
    jsonParam(turn.weightVersionSpans ?? null),
    turn.cachedPromptTokens,
    turn.latencyMs,
    turn.finishReason,
    turn.text,
    turn.createdAtMs,
    prompt.prefixTokens,
    prompt.prefixHash,
    jsonParam(turn.sampling ?? null),
    jsonParam(turn.topLogprobs ?? null),
  ];
}

function toolCallValues(call: TToolCall): unknown[] {
  return [
    call.jobId,
    call.turnIndex,
    call.index,
    call.name,
    jsonParam(call.arguments),
    call.output,
    call.exitCode,
    call.durationMs,
    call.isError,
    call.reward ?? null,
    call.createdAtMs,
  ];
}

function sandboxEventValues(event: TSandboxEvent): unknown[] {
  return [event.sandboxId, event.jobId, event.type, event.state, jsonParam(event.detail), event.atMs];
}

/** `ON CONFLICT (key) DO UPDATE` every other column: the last write of a key wins. */
function upsertClause(columns: readonly ColumnSpec[], keyCount: number): string {
  const keys = columns.slice(0, keyCount).map((column) => `"${column.name}"`);
  const rest = columns.slice(keyCount).map((column) => `"${column.name}" = EXCLUDED."${column.name}"`);
  return `ON CONFLICT (${keys.join(",")}) DO UPDATE SET ${rest.join(", ")}`;
}

async function writeAll(
  sql: SqlExecutor,
  table: string,
  columns: readonly ColumnSpec[],
  rows: unknown[][],
  onConflict: string,
): Promise<void> {
  if (rows.length === 0) return;
  const perStatement = rowsPerStatement(columns.length);
  await sql.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += perStatement) {
      const statement = buildInsert(table, columns, rows.slice(i, i + perStatement), onConflict);
      await tx.execute(statement.sql, statement.params);
    }
  });
}

/** The last item of each key, in order of each key's first appearance. */
function lastByKey<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) byKey.set(keyOf(item), item);
  return [...byKey.values()];
}

/**
 * Stores turns; a turn whose `(jobId, index)` is already stored is replaced, so a retried flush
 * is idempotent and a restarted attempt overwrites the earlier attempt's turn of that index.
 * A prompt is stored as a delta against the previous turn of its job when that turn is in the
 * batch or `previousOf` knows it (`prompt-delta-codec.ts`). Returns the turns written.
 */
export async function upsertTurnRows(
  sql: SqlExecutor,
  turns: readonly TTurn[],
  previousOf: (jobId: string, index: number) => PreviousTurnIds | undefined = () => undefined,
): Promise<TTurn[]> {
  const latest = lastByKey(turns, (turn) => `${turn.jobId}\u0000${turn.index}`);
  const byKey = new Map(latest.map((turn) => [`${turn.jobId}\u0000${turn.index}`, turn]));
  const rows = latest.map((turn) =>
    turnValues(turn, byKey.get(`${turn.jobId}\u0000${turn.index - 1}`) ?? previousOf(turn.jobId, turn.index)),
  );
  await writeAll(sql, "turns", TURN_COLUMNS, rows, upsertClause(TURN_COLUMNS, 2));
  return latest;
}

/** Stores tool calls with the same replace-on-key rule, keyed by `(jobId, turnIndex, index)`. */
export async function upsertToolCallRows(sql: SqlExecutor, calls: readonly TToolCall[]): Promise<void> {
  const latest = lastByKey(calls, (call) => `${call.jobId}\u0000${call.turnIndex}\u0000${call.index}`);
  await writeAll(
    sql,
    "tool_calls",
    TOOL_CALL_COLUMNS,
    latest.map(toolCallValues),
    upsertClause(TOOL_CALL_COLUMNS, 3),
  );
}

/** Appends sandbox events (an event log: nothing is deduplicated). */
export async function insertSandboxEventRows(
  sql: SqlExecutor,
  events: readonly TSandboxEvent[],
): Promise<void> {
  await writeAll(sql, "sandbox_events", SANDBOX_EVENT_COLUMNS, events.map(sandboxEventValues), "");
}
