import type { ToolResult } from "@raas/engine";

/** One content block of an MCP tool result, as far as the text shown to the model needs. */
interface ContentBlock {
  type: string;
  text?: string;
  mimeType?: string;
  uri?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

/** The text of one block: text as it is, other kinds named (the model reads text only). */
function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text ?? "";
    case "resource":
      return block.resource?.text ?? `[resource ${block.resource?.uri ?? ""}]`;
    case "resource_link":
      return `[resource link ${block.uri ?? ""}]`;
    default:
      return `[${block.type}${block.mimeType ? ` ${block.mimeType}` : ""} content]`;
  }
}

/** The `_meta` key under which a tool server attaches a per-step reward to a call's result. */
const MCP_REWARD_META_KEY = "raas/reward";

/**
 * The result's per-step reward (`_meta["raas/reward"]`), absent when the server gave none. A
 * value that is not a number passes as NaN, so that the loop fails the call as the environment's
 * error rather than dropping the reward unseen.
 */
function rewardOf(result: Record<string, unknown>): { reward?: number } {
  const meta = result._meta;
  if (typeof meta !== "object" || meta === null || !(MCP_REWARD_META_KEY in meta)) return {};
  const value = (meta as Record<string, unknown>)[MCP_REWARD_META_KEY];
  return { reward: typeof value === "number" ? value : Number.NaN };
}

/**
 * An MCP `tools/call` result as the loop's `ToolResult`: the content blocks' text, one per line
 * (else the structured content, or an old server's `toolResult`, as JSON), `isError` as the
 * server said, and a per-step reward when `_meta["raas/reward"]` carries one.
 */
export function toToolResult(result: Record<string, unknown>, durationMs: number): ToolResult {
  const blocks = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  const data = result.structuredContent ?? result.toolResult;
  const output =
    blocks.length > 0 ? blocks.map(blockText).join("\n") : data !== undefined ? JSON.stringify(data) : "";
  return {
    output,
    exitCode: null,
    isError: result.isError === true,
    truncated: false,
    timedOut: false,
    durationMs,
    ...rewardOf(result),
  };
}

/** A failed call the model is told about (a server's JSON-RPC error, a call past its time limit). */
export function errorToolResult(output: string, durationMs: number, timedOut = false): ToolResult {
  return { output, exitCode: null, isError: true, truncated: false, timedOut, durationMs };
}
