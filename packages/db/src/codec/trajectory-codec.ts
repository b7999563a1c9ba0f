import type { TSandboxEvent, TSandboxState, TToolCall, TTurn, TWeightVersionSpan } from "@raas/shared";
import type {
  SandboxEvent as SandboxEventRow,
  ToolCall as ToolCallRow,
  Turn as TurnRow,
} from "../generated/client";
import { decodeLogprobs, decodeTokenIds } from "./token-codec";

export function fromTurnRow(row: TurnRow): TTurn {
  return {
    jobId: row.jobId,
    index: row.index,
    promptIds: decodeTokenIds(row.promptIds),
    responseIds: decodeTokenIds(row.responseIds),
    logprobs: decodeLogprobs(row.logprobs),
    backendId: row.backendId,
    weightVersion: row.weightVersion,
    weightVersionSpans: (row.weightVersionSpans as TWeightVersionSpan[] | null) ?? null,
    cachedPromptTokens: row.cachedPromptTokens,
    latencyMs: row.latencyMs,
    finishReason: row.finishReason,
    text: row.text,
    createdAtMs: row.createdAtMs,
  };
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
    createdAtMs: row.createdAtMs,
  };
}

export function fromSandboxEventRow(row: SandboxEventRow): TSandboxEvent {
  return {
    sandboxId: row.sandboxId,
    jobId: row.jobId,
    type: row.type,
    state: row.state as TSandboxState,
    detail: row.detail as Record<string, unknown> | null,
    atMs: row.atMs,
  };
}
