import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { SandboxProcessExit } from "@raas/engine";
import { callerConfigFailure, sandboxFailure } from "@raas/shared";

/** Characters of a server's stderr shown in a failure. */
const STDERR_SHOWN_CHARS = 1_000;

/** Where a server's start stopped: before `initialize` was answered, or listing its tools after. */
export type McpStartPhase = "initialize" | "tools/list";

/** `; its stderr ends: …` with the tail of what the server wrote to stderr, or nothing. */
export function stderrTailText(stderrTail: string): string {
  const tail = stderrTail.trim().slice(-STDERR_SHOWN_CHARS);
  return tail ? `; its stderr ends: ${tail}` : "";
}

/** Why a process that exited on its own before its handshake did, in words. */
function exitWords(exitCode: number): string {
  // sh's `exec` (the sandbox starts commands through it) exits 127 for a missing command and 126
  // for one it cannot execute.
  if (exitCode === 127) return "its command was not found (exit code 127)";
  if (exitCode === 126) return "its command could not be executed (exit code 126)";
  return `it exited with code ${exitCode}`;
}

/** The server's answer refused the exchange (not a closed connection nor a time-out the client saw). */
function isProtocolError(error: unknown): boolean {
  if (error instanceof McpError)
    return error.code !== ErrorCode.ConnectionClosed && error.code !== ErrorCode.RequestTimeout;
  // The SDK's own checks of the server's answer (an unsupported protocol version, a malformed
  // result) throw plain errors; a transport failure shows as a closed connection or an exit.
  return error instanceof Error;
}

/**
 * The failure a server's start ends with, decided on evidence (ARCHITECTURE.md, "Failure kinds"):
 * - the sandbox went first: the sandbox's own failure (and its blame);
 * - the process exited on its own (an exit code, no signal) before answering `initialize` — its
 *   command does not exist, or it stopped on its configuration — or it answered the start with a
 *   protocol error: the environment's configuration (`callerConfigFailure`: not trainable, not
 *   retried, since every sandbox would meet it), with the server's stderr tail;
 * - anything else — no answer within the time limit, killed by a signal, a crash after the
 *   handshake worked, a closed connection — is infrastructure (`start_failed`, retried).
 * `exit` is how the process ended, read after the caller stopped it (a process that had ended on
 * its own keeps its exit code; one the caller killed shows the signal).
 */
export function startFailureOf(input: {
  server: string;
  phase: McpStartPhase;
  error: unknown;
  exit: SandboxProcessExit | null;
  timeoutMs: number;
}): unknown {
  const { server, phase, error, exit } = input;
  if (exit?.sandboxError !== undefined) return exit.sandboxError;
  const stderr = stderrTailText(exit?.stderrTail ?? "");
  const misconfigured = `MCP server "${server}" is misconfigured (the environment's own, not retried)`;
  if (phase === "initialize" && exit !== null && exit.exitCode !== null && exit.signal === null)
    return callerConfigFailure(
      `${misconfigured}: ${exitWords(exit.exitCode)} before answering initialize${stderr}`,
      {
        cause: error,
      },
    );
  if (isProtocolError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return callerConfigFailure(
      `${misconfigured}: it answered ${phase} with a protocol error: ${message}${stderr}`,
      {
        cause: error,
      },
    );
  }
  const timedOut = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
  const how = timedOut
    ? `no answer to ${phase} within ${input.timeoutMs} ms`
    : exit !== null && exit.exitCode !== null
      ? `it exited with code ${exit.exitCode} during ${phase}`
      : `its connection closed during ${phase}${exit?.signal ? ` (its process ended by ${exit.signal})` : ""}`;
  return sandboxFailure("start_failed", `MCP server "${server}" did not start: ${how}${stderr}`, {
    cause: error,
  });
}
