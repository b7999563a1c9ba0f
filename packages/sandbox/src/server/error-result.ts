import type { ExecToolResult } from "../protocol/exec-protocol.types";

/** A tool call that ended with an error message instead of running (bad input, no shell, …). */
export function errorResult(
  message: string,
  startedAt: number,
  limitHit?: ExecToolResult["limitHit"],
): ExecToolResult {
  return {
    output: message,
    exitCode: null,
    isError: true,
    truncated: false,
    timedOut: false,
    durationMs: performance.now() - startedAt,
    ...(limitHit ? { limitHit } : {}),
  };
}
