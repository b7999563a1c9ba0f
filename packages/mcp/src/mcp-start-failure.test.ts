import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { SandboxProcessExit } from "@raas/engine";
import { failureOf, sandboxFailure } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { startFailureOf } from "./mcp-start-failure";

const exited = (exitCode: number, stderrTail = ""): SandboxProcessExit => ({
  exitCode,
  signal: null,
  stderrTail,
});
const killed = (stderrTail = ""): SandboxProcessExit => ({ exitCode: null, signal: "SIGKILL", stderrTail });
const closed = new McpError(ErrorCode.ConnectionClosed, "Connection closed");
const timedOut = new McpError(ErrorCode.RequestTimeout, "Request timed out");
const start = (input: Partial<Parameters<typeof startFailureOf>[0]>) =>
  failureOf(
    startFailureOf({
      server: "db",
      phase: "initialize",
      error: closed,
      exit: null,
      timeoutMs: 500,
      ...input,
    }),
  );

describe("startFailureOf", () => {
  it("blames the environment for a command that is not there, or that exits before initialize", () => {
    expect(start({ exit: exited(127, "sh: 1: exec: mcp-db: not found\n") })).toMatchObject({
      kind: "sandbox",
      cause: "caller",
      message:
        'MCP server "db" is misconfigured (the environment\'s own, not retried): its command was not found (exit code 127) before answering initialize; its stderr ends: sh: 1: exec: mcp-db: not found',
    });
    expect(start({ exit: exited(126) })?.message).toContain(
      "its command could not be executed (exit code 126)",
    );
    expect(start({ exit: exited(1, "Traceback ...\nKeyError: 'DB_PATH'") })).toMatchObject({
      cause: "caller",
      message: expect.stringMatching(
        /it exited with code 1 before answering initialize; its stderr ends: Traceback \.\.\.\nKeyError: 'DB_PATH'$/,
      ),
    });
  });

  it("blames the environment for a protocol error in answer to the start, with the stderr tail", () => {
    const refused = new McpError(ErrorCode.InvalidRequest, "bad configuration");
    expect(start({ error: refused, exit: killed("warn: --db missing") })).toMatchObject({
      kind: "sandbox",
      cause: "caller",
      message: expect.stringMatching(
        /it answered initialize with a protocol error: MCP error -32600: bad configuration; its stderr ends: warn: --db missing$/,
      ),
    });
    const version = new Error("Server's protocol version is not supported: 1999-01-01");
    expect(start({ error: version, exit: killed() })?.cause).toBe("caller");
    expect(start({ phase: "tools/list", error: refused, exit: killed() })?.message).toContain(
      "it answered tools/list with a protocol error",
    );
  });

  it("calls no answer in time, a kill, a closed connection or a crash after the handshake infrastructure", () => {
    expect(start({ error: timedOut, exit: killed() })).toMatchObject({
      kind: "sandbox-error",
      cause: "infrastructure",
      reason: "start_failed",
      message: 'MCP server "db" did not start: no answer to initialize within 500 ms',
    });
    expect(start({ exit: killed("oom") })).toMatchObject({
      cause: "infrastructure",
      message:
        'MCP server "db" did not start: its connection closed during initialize (its process ended by SIGKILL); its stderr ends: oom',
    });
    expect(start({ phase: "tools/list", exit: exited(3, "boom") })).toMatchObject({
      cause: "infrastructure",
      message:
        'MCP server "db" did not start: it exited with code 3 during tools/list; its stderr ends: boom',
    });
  });

  it("keeps the sandbox's own failure when the sandbox went first", () => {
    const sandboxError = sandboxFailure("crashed", "sandbox gone");
    const exit = { ...exited(137), sandboxError };
    expect(startFailureOf({ server: "db", phase: "initialize", error: closed, exit, timeoutMs: 1 })).toBe(
      sandboxError,
    );
  });
});
