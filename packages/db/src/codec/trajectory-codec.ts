import {
  type TSandboxEvent,
  type TSandboxState,
  type TToolCall,
  type TTurn,
  ZSandboxEvent,
  ZTurn,
} from "@raas/shared";
import type {
  SandboxEvent as SandboxEventRow,
  ToolCall as ToolCallRow,
  Turn as TurnRow,
} from "../generated/client";
import { parseJsonColumn } from "./json-column";
import { joinPrompt } from "./prompt-delta-codec";
import { decodeLogprobs, decodeTokenIds } from "./token-codec";

/**
 * One job's turn rows (ordered by index) as turns. A prompt stored as a delta takes its prefix
 * from the turn of the index before it (`prompt-delta-codec.ts`).
 */
export function fromTurnRows(rows: readonly TurnRow[]): TTurn[] {
  const turns: TTurn[] = [];
  for (const row of rows) {
    const before = turns[turns.length - 1];
    const previous =
      before && before.jobId === row.jobId && before.index === row.index - 1 ? before : undefined;
    turns.push(fromTurnRow(row, previous));
  }
  return turns;
}

const ZStoredSpans = ZTurn.shape.weightVersionSpans.unwrap();
const ZStoredSampling = ZTurn.shape.sampling.unwrap();
const ZStoredTopLogprobs = ZTurn.shape.topLogprobs.unwrap().unwrap();

function fromTurnRow(row: TurnRow, previous: TTurn | undefined): TTurn {
  const site = (column: string) => ({ table: "turns", column, rowId: `${row.jobId} turn ${row.index}` });
  const suffixIds = decodeTokenIds(row.promptIds);
  const stored = { suffixIds, prefixTokens: row.promptPrefixTokens, prefixHash: row.promptPrefixHash };
  const turn: TTurn = {
    jobId: row.jobId,
    index: row.index,
    promptIds: joinPrompt(stored, previous),
    responseIds: decodeTokenIds(row.responseIds),
    logprobs: decodeLogprobs(row.logprobs),
    backendId: row.backendId,
    weightVersion: row.weightVersion,
    weightVersionSpans: parseJsonColumn(
      ZStoredSpans,
      row.weightVersionSpans ?? null,
      site("weight_version_spans"),
    ),
    cachedPromptTokens: row.cachedPromptTokens,
    latencyMs: row.latencyMs,
    finishReason: row.finishReason,
    text: row.text,
    createdAtMs: row.createdAtMs,
  };
  // Absent, as it was given, for turns stored without it (recorded before it was kept).
  if (row.sampling !== null) turn.sampling = parseJsonColumn(ZStoredSampling, row.sampling, site("sampling"));
  // Absent, like `sampling`, unless the job asked for top-k logprobs.
  if (row.topLogprobs != null) {
    turn.topLogprobs = parseJsonColumn(ZStoredTopLogprobs, row.topLogprobs, site("top_logprobs"));
  }
  return turn;
}

export function fromToolCallRow(row: ToolCallRow): TToolCall {
  return {
    jobId: row.jobId,
    turnIndex: row.turnIndex,
    index: row.index,
    name: row.name,
    arguments: row.arguments ?? null,
    output: row.output,
    exitCode: row.exitCode,
    durationMs: row.durationMs,
    isError: row.isError,
    // Absent, as it was given, for calls whose result carried no reward.
    ...(row.reward !== null ? { reward: row.reward } : {}),
    createdAtMs: row.createdAtMs,
  };
}

export function fromSandboxEventRow(row: SandboxEventRow): TSandboxEvent {
  return {
    sandboxId: row.sandboxId,
    jobId: row.jobId,
    type: row.type,
    state: row.state as TSandboxState,
    detail: parseJsonColumn(ZSandboxEvent.shape.detail, row.detail, {
      table: "sandbox_events",
      column: "detail",
      rowId: String(row.id),
    }),
    atMs: row.atMs,
  };
}
