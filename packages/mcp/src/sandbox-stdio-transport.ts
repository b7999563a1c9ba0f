import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { SandboxProcess } from "@raas/engine";

/**
 * The MCP stdio transport over a process running inside a sandbox (`Sandbox.spawn`): one
 * JSON-RPC message per line on its stdin and stdout, as the SDK's `StdioClientTransport` speaks
 * to a local child. A line that is not a message is reported to `onerror` and skipped. The
 * connection closes when the process ends or `close` kills it.
 */
export class SandboxStdioTransport implements Transport {
  readonly #process: SandboxProcess;
  readonly #buffer = new ReadBuffer();
  #isClosed = false;

  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;

  constructor(process: SandboxProcess) {
    this.#process = process;
  }

  async start(): Promise<void> {
    this.#process.onStdout((chunk) => this.#read(chunk));
    void this.#process.exited.then(() => this.#markClosed());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#isClosed) throw new Error("the MCP server's process has ended");
    await this.#process.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    await this.#process.kill();
    this.#markClosed();
  }

  #read(chunk: Uint8Array): void {
    try {
      this.#buffer.append(Buffer.from(chunk));
    } catch (error) {
      // A line over the buffer's cap (10 MiB): dropped, reported.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    for (;;) {
      try {
        const message = this.#buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  #markClosed(): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    this.#buffer.clear();
    this.onclose?.();
  }
}
