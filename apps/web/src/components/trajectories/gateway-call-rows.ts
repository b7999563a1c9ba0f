import { formatNumber } from "../../lib/format";
import type { TGatewayCallItem } from "./trajectory-types";

const API_LABELS: Record<TGatewayCallItem["api"], string> = {
  "chat.completions": "OpenAI chat completions",
  "anthropic.messages": "Anthropic Messages",
  "openai.responses": "OpenAI Responses",
};

/** The API shape in words. */
export function apiLabel(api: TGatewayCallItem["api"]): string {
  return API_LABELS[api];
}

/** What ran as the harness, from the job's payload: its recipe, or its command's first words. */
export function harnessLabel(payload: Record<string, unknown> | undefined): string {
  if (typeof payload?.recipe === "string") return `recipe ${payload.recipe}`;
  const command = payload?.command;
  if (Array.isArray(command) && command.length > 0) {
    const shown = command.slice(0, 2).map((word) => clip(String(word), 40));
    return `command ${shown.join(" ")}${command.length > 2 ? " …" : ""}`;
  }
  return "—";
}

/** The distinct values, in order of first appearance, joined; "—" when none. */
function distinct(values: readonly (string | null)[]): string {
  const seen = [...new Set(values.filter((value): value is string => value !== null))];
  return seen.length === 0 ? "—" : seen.join(", ");
}

/** The calls' API shapes and clients in a line each. */
export function callsFacts(calls: readonly TGatewayCallItem[]): { api: string; client: string } {
  return {
    api: distinct(calls.map((call) => apiLabel(call.api))),
    client: distinct(calls.map((call) => call.userAgent)),
  };
}

/** A call's numbers in a line: tokens in and out, why it stopped, backend time and the gateway's. */
export function callLine(call: TGatewayCallItem): string {
  return [
    `${formatNumber(call.promptTokens, 0)} prompt → ${formatNumber(call.responseTokens, 0)} sampled`,
    call.finishReason ?? "finish unknown",
    `${formatNumber(call.latencyMs, 0)} ms model + ${formatNumber(call.overheadMs, 1)} ms gateway`,
  ].join(" · ");
}

/** What the answer held, in the harness's shape: block or item types, and the tools it called. */
export function answerSummary(call: TGatewayCallItem): string {
  const answered = asRecord(call.answered);
  const parts: string[] = [];
  if (call.api === "anthropic.messages") {
    for (const block of asArray(answered.content)) {
      const { type, name } = asRecord(block);
      parts.push(type === "tool_use" ? `tool_use ${String(name)}` : String(type));
    }
  } else if (call.api === "openai.responses") {
    for (const item of asArray(answered.output)) {
      const { type, name } = asRecord(item);
      parts.push(type === "function_call" ? `function_call ${String(name)}` : String(type));
    }
  } else {
    if (typeof answered.reasoning_content === "string" && answered.reasoning_content !== "")
      parts.push("reasoning");
    if (typeof answered.content === "string" && answered.content !== "") parts.push("content");
    for (const toolCall of asArray(answered.tool_calls)) {
      parts.push(`tool_call ${String(asRecord(asRecord(toolCall).function).name)}`);
    }
  }
  return parts.length === 0 ? "empty answer" : parts.join(", ");
}

/** Longest JSON shown per block; the rest is counted, not drawn. */
const MAX_JSON_CHARACTERS = 20_000;

/** A value as indented JSON, cut at `MAX_JSON_CHARACTERS` with the characters left out named. */
export function jsonBlock(value: unknown): string {
  const text = JSON.stringify(value ?? null, null, 2);
  if (text.length <= MAX_JSON_CHARACTERS) return text;
  return `${text.slice(0, MAX_JSON_CHARACTERS)}\n… ${formatNumber(text.length - MAX_JSON_CHARACTERS, 0)} more characters (the whole call: GET /api/v1/jobs/{jobId}/gateway-calls)`;
}

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
