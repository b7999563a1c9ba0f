import type { TToolCall, TTurn } from "@raas/shared";
import type { ToolCall as ToolCallRow, Turn as TurnRow } from "../generated/client";

/** One line of a run's archive: a job's whole trajectory as it was stored. */
export interface ArchivedTrajectory {
  jobId: string;
  runId: string;
  archivedAtMs: number;
  turns: TTurn[];
  toolCalls: TToolCall[];
}

/**
 * A trajectory as one JSON line. Logprobs may be `-Infinity` or `-0`, which JSON cannot hold:
 * those are written as the strings `"-Infinity"`, `"Infinity"`, `"NaN"` and `"-0"` and read back.
 */
export function encodeArchiveLine(record: ArchivedTrajectory): string {
  const turns = record.turns.map((turn) => ({
    ...turn,
    logprobs: turn.logprobs.map((value) =>
      Object.is(value, -0) ? "-0" : Number.isFinite(value) ? value : String(value),
    ),
  }));
  return `${JSON.stringify({ ...record, turns })}\n`;
}

export function decodeArchiveLine(line: string): ArchivedTrajectory {
  const record = JSON.parse(line) as ArchivedTrajectory;
  for (const turn of record.turns) {
    turn.logprobs = (turn.logprobs as Array<number | string>).map((value) =>
      typeof value === "number" ? value : Number(value),
    );
  }
  return record;
}

type SqlRow = Record<string, unknown>;

/** A `turns` row read with plain SQL (snake_case) in the shape Prisma returns. */
export function turnRowFromSql(row: SqlRow): TurnRow {
  return {
    jobId: row.job_id as string,
    index: row.index as number,
    promptIds: row.prompt_ids as TurnRow["promptIds"],
    responseIds: row.response_ids as TurnRow["responseIds"],
    logprobs: row.logprobs as TurnRow["logprobs"],
    promptTokens: row.prompt_tokens as number,
    responseTokens: row.response_tokens as number,
    promptPrefixTokens: row.prompt_prefix_tokens as number,
    promptPrefixHash: row.prompt_prefix_hash as number | null,
    backendId: row.backend_id as string | null,
    weightVersion: row.weight_version as string | null,
    weightVersionSpans: row.weight_version_spans as TurnRow["weightVersionSpans"],
    cachedPromptTokens: row.cached_prompt_tokens as number | null,
    latencyMs: row.latency_ms as number,
    finishReason: row.finish_reason as string | null,
    text: row.text as string | null,
    sampling: (row.sampling ?? null) as TurnRow["sampling"],
    topLogprobs: (row.top_logprobs ?? null) as TurnRow["topLogprobs"],
    createdAtMs: row.created_at_ms as number,
  };
}

/** A `tool_calls` row read with plain SQL (snake_case) in the shape Prisma returns. */
export function toolCallRowFromSql(row: SqlRow): ToolCallRow {
  return {
    jobId: row.job_id as string,
    turnIndex: row.turn_index as number,
    index: row.index as number,
    name: row.name as string,
    arguments: row.arguments as ToolCallRow["arguments"],
    output: row.output as string,
    exitCode: row.exit_code as number | null,
    durationMs: row.duration_ms as number,
    isError: row.is_error as boolean,
    reward: (row.reward ?? null) as number | null,
    createdAtMs: row.created_at_ms as number,
  };
}
