import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type {
  Sandbox,
  SandboxProcess,
  SandboxProcessExit,
  ToolResult,
  ToolServerEnd,
  ToolServerSpec,
  ToolSpec,
} from "@raas/engine";
import { sandboxFailure } from "@raas/shared";
import { type McpStartPhase, startFailureOf, stderrTailText } from "./mcp-start-failure";
import { errorToolResult, toToolResult } from "./mcp-tool-result";
import { SandboxStdioTransport } from "./sandbox-stdio-transport";

/** Time and cancel of one exchange with a server. */
export interface CallBounds {
  signal: AbortSignal;
  timeoutMs: number;
}

const CLIENT_INFO = { name: "raas", version: "0.1.0" };

/** How long a stopped server's exit report may take to arrive, in ms. */
const EXIT_REPORT_WAIT_MS = 5_000;

function endMessage(server: string, exit: SandboxProcessExit): string {
  const how = exit.signal
    ? `was killed by ${exit.signal}`
    : exit.exitCode !== null
      ? `exited with code ${exit.exitCode}`
      : "ended with its sandbox";
  return `MCP server "${server}" ${how}${stderrTailText(exit.stderrTail)}`;
}

/** A JSON-RPC error the server sent (not one the client made up for a closed connection or a time-out). */
function isAnswer(error: unknown): error is McpError {
  return (
    error instanceof McpError &&
    error.code !== ErrorCode.ConnectionClosed &&
    error.code !== ErrorCode.RequestTimeout
  );
}

function delay<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms).unref());
}

/**
 * One MCP server running in a sandbox: the SDK's `Client` over the process's stdio. Its end
 * (the process exited, or the sandbox went first) is recorded as soon as it is seen.
 */
export class McpServerConnection {
  readonly spec: ToolServerSpec;
  /** Resolves when the server's process has ended. */
  readonly ended: Promise<ToolServerEnd>;
  readonly #client = new Client(CLIENT_INFO);
  readonly #process: SandboxProcess;
  #end: ToolServerEnd | null = null;
  #exit: SandboxProcessExit | null = null;

  private constructor(spec: ToolServerSpec, process: SandboxProcess) {
    this.spec = spec;
    this.#process = process;
    this.ended = process.exited.then((exit) => {
      this.#exit = exit;
      this.#end = {
        server: spec.name,
        message: endMessage(spec.name, exit),
        ...(exit.sandboxError !== undefined ? { sandboxError: exit.sandboxError } : {}),
      };
      return this.#end;
    });
  }

  /**
   * Starts the server, handshakes and lists its tools within `bounds.timeoutMs`. A server whose
   * command is missing, that exits before answering `initialize`, or that answers with a protocol
   * error is the environment's misconfiguration (`callerConfigFailure`, not retried); one that
   * does not answer in time or crashes after its handshake is a `start_failed` sandbox failure
   * (infrastructure). See `startFailureOf`.
   */
  static async start(
    sandbox: Sandbox,
    spec: ToolServerSpec,
    bounds: CallBounds,
  ): Promise<{ connection: McpServerConnection; tools: ToolSpec[] }> {
    if (!sandbox.spawn)
      throw sandboxFailure(
        "start_failed",
        `this sandbox cannot run tool servers (MCP server "${spec.name}")`,
      );
    const process = await sandbox.spawn([spec.command, ...spec.args], {
      env: { ...spec.env },
      signal: bounds.signal,
    });
    const connection = new McpServerConnection(spec, process);
    let phase: McpStartPhase = "initialize";
    try {
      await connection.#client.connect(new SandboxStdioTransport(process), {
        signal: bounds.signal,
        timeout: bounds.timeoutMs,
      });
      phase = "tools/list";
      return { connection, tools: await connection.#listTools(bounds) };
    } catch (error) {
      await connection.close();
      if (bounds.signal.aborted) throw bounds.signal.reason;
      // Stopped now if it had not ended: a process that ended on its own keeps its exit code.
      await Promise.race([connection.ended, delay(EXIT_REPORT_WAIT_MS, null)]);
      throw startFailureOf({
        server: spec.name,
        phase,
        error,
        exit: connection.#exit,
        timeoutMs: bounds.timeoutMs,
      });
    }
  }

  async #listTools(bounds: CallBounds): Promise<ToolSpec[]> {
    const tools: ToolSpec[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#client.listTools(cursor === undefined ? {} : { cursor }, {
        signal: bounds.signal,
        timeout: bounds.timeoutMs,
      });
      for (const tool of page.tools) {
        tools.push({
          name: tool.name,
          description: tool.description ?? tool.title ?? "",
          parameters: tool.inputSchema,
        });
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  /**
   * Calls one tool. The server's own refusals (a JSON-RPC error, `isError`) and a call past its
   * time limit come back as error results for the model; the server ending during the call
   * throws (see {@link McpServerConnection.endFailure}).
   */
  async call(name: string, args: Record<string, unknown>, bounds: CallBounds): Promise<ToolResult> {
    const startedAt = performance.now();
    if (this.#end) throw this.endFailure(this.#end, `before the agent's ${name} call`);
    try {
      const result = await this.#client.callTool({ name, arguments: args }, undefined, {
        signal: bounds.signal,
        timeout: bounds.timeoutMs,
      });
      return toToolResult(result, performance.now() - startedAt);
    } catch (error) {
      if (bounds.signal.aborted) throw bounds.signal.reason;
      const elapsedMs = performance.now() - startedAt;
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
        return errorToolResult(`the ${name} call ran past its ${bounds.timeoutMs} ms`, elapsedMs, true);
      // The server answered with an error: it is alive, the model reads what it said.
      if (isAnswer(error)) return errorToolResult(`${name} failed: ${error.message}`, elapsedMs);
      const end = await this.#endSoon(bounds.timeoutMs);
      if (end) throw this.endFailure(end, `during the agent's ${name} call`);
      throw sandboxFailure("request_failed", `MCP server "${this.spec.name}": ${String(error)}`, {
        cause: error,
      });
    }
  }

  /** Whether the server still answers: null when it does (or is merely slow), else how it ended. */
  async findEnd(bounds: CallBounds): Promise<ToolServerEnd | null> {
    if (this.#end) return this.#end;
    try {
      await this.#client.ping({ signal: bounds.signal, timeout: bounds.timeoutMs });
      return null;
    } catch (error) {
      if (bounds.signal.aborted) throw bounds.signal.reason;
      if (isAnswer(error) || (error instanceof McpError && error.code === ErrorCode.RequestTimeout))
        return null;
      return this.#endSoon(bounds.timeoutMs);
    }
  }

  /**
   * The error a server's end fails a call with: the sandbox's own failure when the sandbox went
   * first (it carries the sandbox's blame), else a `crashed` sandbox failure (infrastructure).
   */
  endFailure(end: ToolServerEnd, when: string): unknown {
    if (end.sandboxError !== undefined) return end.sandboxError;
    return sandboxFailure("crashed", `${end.message} (${when})`);
  }

  /**
   * The server's end once it is reported, or null when it is not within `waitMs`: a write to a
   * process that exited fails at once, its exit report follows the last of its output.
   */
  #endSoon(waitMs: number): Promise<ToolServerEnd | null> {
    return this.#end ? Promise.resolve(this.#end) : Promise.race([this.ended, delay(waitMs, null)]);
  }

  /** Stops the server (kills its process). Idempotent. */
  async close(): Promise<void> {
    await this.#client.close().catch(() => undefined);
    await this.#process.kill();
  }
}
