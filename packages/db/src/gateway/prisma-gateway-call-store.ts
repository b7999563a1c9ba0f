import type { GatewayCallStore } from "@raas/engine";
import type { TGatewayCallRecord, TToolChoiceViolation } from "@raas/shared";
import { decodeLogprobs, decodeTokenIds, encodeLogprobs, encodeTokenIds } from "../codec/token-codec";
import { jsonParam } from "../sql/bulk-statements";
import type { SqlExecutor } from "../sql/sql-executor";

/** The columns of `gateway_calls` as the driver hands them back. */
interface GatewayCallRow {
  job_id: string;
  seq: number;
  call_id: string;
  parent_call_id: string | null;
  prompt_ids: Uint8Array;
  response_ids: Uint8Array;
  logprobs: Uint8Array;
  finish_reason: string | null;
  backend_id: string | null;
  weight_version: string | null;
  cached_prompt_tokens: number | null;
  latency_ms: number;
  overhead_ms: number;
  enable_thinking: boolean | null;
  messages: unknown;
  tools: unknown;
  answer: unknown;
  tool_choice_violation: unknown;
  created_at_ms: number;
}

const UPSERT = `INSERT INTO gateway_calls (job_id, seq, call_id, parent_call_id, prompt_ids, response_ids,
  logprobs, prompt_tokens, response_tokens, finish_reason, backend_id, weight_version,
  cached_prompt_tokens, latency_ms, overhead_ms, messages, tools, answer, tool_choice_violation, created_at_ms,
  enable_thinking)
VALUES ($1, $2, $3, $4, $5::bytea, $6::bytea, $7::bytea, $8, $9, $10, $11, $12, $13, $14, $15,
  $16::jsonb, $17::jsonb, $18::jsonb, $19::jsonb, $20, $21)
ON CONFLICT (job_id, seq) DO UPDATE SET call_id = EXCLUDED.call_id,
  parent_call_id = EXCLUDED.parent_call_id, prompt_ids = EXCLUDED.prompt_ids,
  response_ids = EXCLUDED.response_ids, logprobs = EXCLUDED.logprobs,
  prompt_tokens = EXCLUDED.prompt_tokens, response_tokens = EXCLUDED.response_tokens,
  finish_reason = EXCLUDED.finish_reason, backend_id = EXCLUDED.backend_id,
  weight_version = EXCLUDED.weight_version, cached_prompt_tokens = EXCLUDED.cached_prompt_tokens,
  latency_ms = EXCLUDED.latency_ms, overhead_ms = EXCLUDED.overhead_ms,
  messages = EXCLUDED.messages, tools = EXCLUDED.tools, answer = EXCLUDED.answer,
  tool_choice_violation = EXCLUDED.tool_choice_violation, created_at_ms = EXCLUDED.created_at_ms,
  enable_thinking = EXCLUDED.enable_thinking`;

const SELECT = `SELECT job_id, seq, call_id, parent_call_id, prompt_ids, response_ids, logprobs,
  finish_reason, backend_id, weight_version, cached_prompt_tokens, latency_ms, overhead_ms,
  messages, tools, answer, tool_choice_violation, created_at_ms, enable_thinking
FROM gateway_calls WHERE job_id = $1 ORDER BY seq`;

const DELETE_CALLS = `DELETE FROM gateway_calls WHERE job_id = $1`;

/** Bytes as a driver parameter: both `pg` and PGlite send a Buffer as bytea. */
function bytesParam(bytes: Uint8Array<ArrayBuffer>): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** jsonb as the drivers return it: parsed by `pg` and PGlite, text if a driver ever does not. */
function parsedJson(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}

function callValues(record: TGatewayCallRecord): unknown[] {
  return [
    record.jobId,
    record.seq,
    record.id,
    record.parentCallId,
    bytesParam(encodeTokenIds(record.promptIds)),
    bytesParam(encodeTokenIds(record.responseIds)),
    bytesParam(encodeLogprobs(record.logprobs)),
    record.promptIds.length,
    record.responseIds.length,
    record.finishReason,
    record.backendId,
    record.weightVersion,
    record.cachedPromptTokens,
    record.latencyMs,
    record.overheadMs,
    jsonParam(record.messages),
    jsonParam(record.tools),
    // An answer is an assistant message; a JSON `null` keeps the column NOT NULL and round-trips.
    JSON.stringify(record.answer ?? null),
    jsonParam(record.toolChoiceViolation ?? null),
    record.createdAtMs,
    record.enableThinking ?? null,
  ];
}

function fromRow(row: GatewayCallRow): TGatewayCallRecord {
  const record: TGatewayCallRecord = {
    id: row.call_id,
    seq: Number(row.seq),
    jobId: row.job_id,
    parentCallId: row.parent_call_id,
    promptIds: decodeTokenIds(row.prompt_ids),
    responseIds: decodeTokenIds(row.response_ids),
    logprobs: decodeLogprobs(row.logprobs),
    finishReason: row.finish_reason,
    backendId: row.backend_id,
    weightVersion: row.weight_version,
    cachedPromptTokens: row.cached_prompt_tokens === null ? null : Number(row.cached_prompt_tokens),
    latencyMs: Number(row.latency_ms),
    overheadMs: Number(row.overhead_ms),
    messages: parsedJson(row.messages) as unknown[],
    tools: parsedJson(row.tools) as unknown[],
    answer: parsedJson(row.answer),
    createdAtMs: Number(row.created_at_ms),
  };
  if (row.enable_thinking !== null) record.enableThinking = row.enable_thinking;
  if (row.tool_choice_violation !== null) {
    record.toolChoiceViolation = parsedJson(row.tool_choice_violation) as TToolChoiceViolation;
  }
  return record;
}

/**
 * The `GatewayCallStore` of PGlite and PostgreSQL (table `gateway_calls`), so a job's gateway
 * calls — and the traces and certificate rebuilt from them — survive a restart and are read by
 * every process sharing the database. Runs on the job store's driver (`jobStore.sql`: Prisma's
 * PGlite adapter cannot bind bytea). Token ids are Int32 and logprobs Float32 `bytea`, as for
 * turns (so logprobs read back rounded to single precision). Writing a `(jobId, seq)` again
 * replaces the row, so a retried write is idempotent.
 */
export class PrismaGatewayCallStore implements GatewayCallStore {
  readonly #sql: SqlExecutor;

  constructor(sql: SqlExecutor) {
    this.#sql = sql;
  }

  async append(record: TGatewayCallRecord): Promise<void> {
    await this.#sql.execute(UPSERT, callValues(record));
  }

  async listCalls(jobId: string): Promise<TGatewayCallRecord[]> {
    const rows = await this.#sql.query<GatewayCallRow>(SELECT, [jobId]);
    return rows.map(fromRow);
  }

  async deleteCalls(jobId: string): Promise<void> {
    await this.#sql.execute(DELETE_CALLS, [jobId]);
  }
}
