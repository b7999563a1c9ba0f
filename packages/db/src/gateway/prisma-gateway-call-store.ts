import type { GatewayCallBase, GatewayCallStore } from "@raas/engine";
import { type TGatewayCallRecord, ZGatewayCallRecord } from "@raas/shared";
import { parseJsonColumn } from "../codec/json-column";
import { hashTokenPrefix, streamPrefix } from "../codec/prompt-delta-codec";
import { decodeLogprobs, decodeTokenIds, encodeLogprobs, encodeTokenIds } from "../codec/token-codec";
import { buildInsert, byteaParam, bytesFromHex, type ColumnSpec, jsonParam } from "../sql/bulk-statements";
import { GroupWriter } from "../sql/group-writer";
import type { SqlExecutor } from "../sql/sql-executor";

/** The columns of `gateway_calls` as the driver hands them back. */
interface GatewayCallRow {
  job_id: string;
  seq: number;
  call_id: string;
  parent_call_id: string | null;
  /** The bytea columns as hex (`encode(…, 'hex')`). */
  prompt_ids: string;
  response_ids: string;
  logprobs: string;
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
  sampling: unknown;
  overridden_sampling: unknown;
  top_logprobs: unknown;
  exchange: unknown;
  created_at_ms: number;
  base_seq: number | null;
  base_prompt_tokens: number;
  base_messages: number;
  base_tools: boolean;
  base_prompt_hash: number | null;
}

/** The columns written, in the order of `callValues`. */
const COLUMNS: readonly ColumnSpec[] = [
  { name: "job_id", type: "text" },
  { name: "seq", type: "int4" },
  { name: "call_id", type: "text" },
  { name: "parent_call_id", type: "text" },
  { name: "prompt_ids", type: "bytea" },
  { name: "response_ids", type: "bytea" },
  { name: "logprobs", type: "bytea" },
  { name: "prompt_tokens", type: "int4" },
  { name: "response_tokens", type: "int4" },
  { name: "finish_reason", type: "text" },
  { name: "backend_id", type: "text" },
  { name: "weight_version", type: "text" },
  { name: "cached_prompt_tokens", type: "int4" },
  { name: "latency_ms", type: "float8" },
  { name: "overhead_ms", type: "float8" },
  { name: "messages", type: "jsonb" },
  { name: "tools", type: "jsonb" },
  { name: "answer", type: "jsonb" },
  { name: "tool_choice_violation", type: "jsonb" },
  { name: "created_at_ms", type: "float8" },
  { name: "enable_thinking", type: "bool" },
  { name: "base_seq", type: "int4" },
  { name: "base_prompt_tokens", type: "int4" },
  { name: "base_messages", type: "int4" },
  { name: "base_tools", type: "bool" },
  { name: "base_prompt_hash", type: "int4" },
  { name: "sampling", type: "jsonb" },
  { name: "overridden_sampling", type: "jsonb" },
  { name: "top_logprobs", type: "jsonb" },
  { name: "exchange", type: "jsonb" },
];

/** Writing a `(job_id, seq)` again replaces the row. */
const ON_CONFLICT = `ON CONFLICT (job_id, seq) DO UPDATE SET ${COLUMNS.slice(2)
  .map(({ name }) => `${name} = EXCLUDED.${name}`)
  .join(", ")}`;

/** Options of `PrismaGatewayCallStore`. */
export interface GatewayCallStoreOptions {
  /**
   * The most calls appended in one statement. Default 64: on PostgreSQL a call's write costs a
   * round trip and a commit, which a group shares (append p50 7.0 → 4.0 ms, p90 28 → 12 ms at 64
   * sessions in the gateway bench). Use 1 on PGlite: it runs in the server's thread, where a group
   * would hold the event loop for all its rows at once, while single writes interleave with the
   * rest of the server's work.
   */
  maxCallsPerStatement?: number;
}

const SELECT = `SELECT job_id, seq, call_id, parent_call_id, encode(prompt_ids, 'hex') AS prompt_ids,
  encode(response_ids, 'hex') AS response_ids, encode(logprobs, 'hex') AS logprobs,
  finish_reason, backend_id, weight_version, cached_prompt_tokens, latency_ms, overhead_ms,
  messages, tools, answer, tool_choice_violation, created_at_ms, enable_thinking,
  base_seq, base_prompt_tokens, base_messages, base_tools, base_prompt_hash, sampling, overridden_sampling,
  top_logprobs, exchange
FROM gateway_calls WHERE job_id = $1 ORDER BY seq`;

const DELETE_CALLS = `DELETE FROM gateway_calls WHERE job_id = $1`;

/** jsonb as the drivers return it: parsed by `pg` and PGlite, text if a driver ever does not. */
/** The schemas of the record's JSON columns (a stored column holds the value, never `undefined`). */
const STORED = {
  messages: ZGatewayCallRecord.shape.messages,
  tools: ZGatewayCallRecord.shape.tools,
  sampling: ZGatewayCallRecord.shape.sampling.unwrap(),
  overriddenSampling: ZGatewayCallRecord.shape.overriddenSampling.unwrap(),
  topLogprobs: ZGatewayCallRecord.shape.topLogprobs.unwrap(),
  exchange: ZGatewayCallRecord.shape.exchange.unwrap(),
  toolChoiceViolation: ZGatewayCallRecord.shape.toolChoiceViolation.unwrap(),
};

function parsedJson(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}

/** A call to append, with what it repeats of an earlier call (stored as a reference, not again). */
interface Append {
  record: TGatewayCallRecord;
  base: GatewayCallBase | undefined;
}

function callValues({ record, base }: Append): unknown[] {
  return [
    record.jobId,
    record.seq,
    record.id,
    record.parentCallId,
    byteaParam(encodeTokenIds(base ? record.promptIds.slice(base.promptTokens) : record.promptIds)),
    byteaParam(encodeTokenIds(record.responseIds)),
    byteaParam(encodeLogprobs(record.logprobs)),
    record.promptIds.length,
    record.responseIds.length,
    record.finishReason,
    record.backendId,
    record.weightVersion,
    record.cachedPromptTokens,
    record.latencyMs,
    record.overheadMs,
    jsonParam(base ? record.messages.slice(base.messages) : record.messages),
    jsonParam(base?.isSameTools ? [] : record.tools),
    // An answer is an assistant message; a JSON `null` keeps the column NOT NULL and round-trips.
    JSON.stringify(record.answer ?? null),
    jsonParam(record.toolChoiceViolation ?? null),
    record.createdAtMs,
    record.enableThinking ?? null,
    base?.seq ?? null,
    base?.promptTokens ?? 0,
    base?.messages ?? 0,
    base?.isSameTools ?? false,
    base && base.promptTokens > 0 ? hashTokenPrefix(record.promptIds, base.promptTokens) : null,
    jsonParam(record.sampling ?? null),
    jsonParam(record.overriddenSampling ?? null),
    jsonParam(record.topLogprobs ?? null),
    jsonParam(record.exchange ?? null),
  ];
}

/**
 * A stored row as the complete call: a row stored on a base (an earlier call of the job, read
 * before it: `earlier` by seq) gets back what it repeats of it. A base that is gone, shorter than
 * the row says, or whose repeated ids hash otherwise (rewritten since) is an error, not a guess.
 */
function fromRow(row: GatewayCallRow, earlier: ReadonlyMap<number, TGatewayCallRecord>): TGatewayCallRecord {
  let promptIds = decodeTokenIds(bytesFromHex(row.prompt_ids));
  const site = (column: string) => ({ table: "gateway_calls", column, rowId: `${row.job_id}#${row.seq}` });
  let messages = parseJsonColumn(STORED.messages, parsedJson(row.messages), site("messages"));
  let tools = parseJsonColumn(STORED.tools, parsedJson(row.tools), site("tools"));
  if (row.base_seq !== null) {
    const base = earlier.get(Number(row.base_seq));
    const promptTokens = Number(row.base_prompt_tokens);
    const baseMessages = Number(row.base_messages);
    if (
      !base ||
      promptTokens > base.promptIds.length + base.responseIds.length ||
      baseMessages > base.messages.length ||
      (promptTokens > 0 &&
        hashTokenPrefix(base.promptIds, promptTokens, base.responseIds) !== row.base_prompt_hash)
    ) {
      throw new Error(
        `gateway call ${row.job_id}#${row.seq} is stored on call #${row.base_seq}, which is missing or not the call it was stored on`,
      );
    }
    promptIds = streamPrefix(base, promptTokens).concat(promptIds);
    messages = [...base.messages.slice(0, baseMessages), ...messages];
    if (row.base_tools) tools = base.tools;
  }
  const record: TGatewayCallRecord = {
    id: row.call_id,
    seq: Number(row.seq),
    jobId: row.job_id,
    parentCallId: row.parent_call_id,
    promptIds,
    responseIds: decodeTokenIds(bytesFromHex(row.response_ids)),
    logprobs: decodeLogprobs(bytesFromHex(row.logprobs)),
    finishReason: row.finish_reason,
    backendId: row.backend_id,
    weightVersion: row.weight_version,
    cachedPromptTokens: row.cached_prompt_tokens === null ? null : Number(row.cached_prompt_tokens),
    latencyMs: Number(row.latency_ms),
    overheadMs: Number(row.overhead_ms),
    messages,
    tools,
    answer: parsedJson(row.answer),
    createdAtMs: Number(row.created_at_ms),
  };
  if (row.enable_thinking !== null) record.enableThinking = row.enable_thinking;
  if (row.tool_choice_violation !== null) {
    const violation = parsedJson(row.tool_choice_violation);
    record.toolChoiceViolation = parseJsonColumn(
      STORED.toolChoiceViolation,
      violation,
      site("tool_choice_violation"),
    );
  }
  if (row.sampling !== null) {
    record.sampling = parseJsonColumn(STORED.sampling, parsedJson(row.sampling), site("sampling"));
  }
  // Absent, as the gateway gave it, unless the job asked for top-k logprobs.
  if (row.top_logprobs != null) {
    record.topLogprobs = parseJsonColumn(
      STORED.topLogprobs,
      parsedJson(row.top_logprobs),
      site("top_logprobs"),
    );
  }
  if (row.exchange != null) {
    record.exchange = parseJsonColumn(STORED.exchange, parsedJson(row.exchange), site("exchange"));
  }
  if (row.overridden_sampling !== null) {
    const overridden = parsedJson(row.overridden_sampling);
    record.overriddenSampling = parseJsonColumn(
      STORED.overriddenSampling,
      overridden,
      site("overridden_sampling"),
    );
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
  /**
   * Calls are appended in groups (see `maxCallsPerStatement`): the gateway awaits each call's
   * write before it answers.
   */
  readonly #writer: GroupWriter<Append>;

  constructor(sql: SqlExecutor, options: GatewayCallStoreOptions = {}) {
    this.#sql = sql;
    this.#writer = new GroupWriter((records) => this.#upsert(records), options.maxCallsPerStatement ?? 64);
  }

  /**
   * Stores the call; with a `base`, only what the call adds to it (the rest of the prompt ids, the
   * messages after the repeated ones, the tools unless the same) and a reference to the base.
   */
  append(record: TGatewayCallRecord, base?: GatewayCallBase): Promise<void> {
    return this.#writer.write({ record, base });
  }

  async listCalls(jobId: string): Promise<TGatewayCallRecord[]> {
    const rows = await this.#sql.query<GatewayCallRow>(SELECT, [jobId]);
    const bySeq = new Map<number, TGatewayCallRecord>();
    return rows.map((row) => {
      const record = fromRow(row, bySeq);
      bySeq.set(record.seq, record);
      return record;
    });
  }

  async deleteCalls(jobId: string): Promise<void> {
    // After every append made before it: a call of an earlier attempt still waiting for its group
    // must not be stored after the delete.
    await this.#writer.whenWritten();
    await this.#sql.execute(DELETE_CALLS, [jobId]);
  }

  /** One statement for the group; a call written twice in it is stored as its later write. */
  async #upsert(appends: readonly Append[]): Promise<void> {
    const latest = new Map<string, Append>();
    for (const append of appends) {
      const key = `${append.record.jobId}\u0000${append.record.seq}`;
      latest.delete(key);
      latest.set(key, append);
    }
    const { sql, params } = buildInsert(
      "gateway_calls",
      COLUMNS,
      [...latest.values()].map(callValues),
      ON_CONFLICT,
    );
    await this.#sql.execute(sql, params);
  }
}
