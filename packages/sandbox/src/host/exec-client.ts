import { connect, type Socket } from "node:net";
import { sandboxFailure } from "@raas/shared";
import type {
  ExecErrorBody,
  ExecEvent,
  ExecOp,
  ExecRequestBody,
  ExecResponse,
  ExecResultByOp,
} from "../protocol/exec-protocol.types";
import { encodeJsonLine, JsonLineDecoder } from "../protocol/json-lines";

interface Waiter {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /** What a running request (a spawned process) reports before its response. */
  onEvent?: ((event: ExecEvent) => void) | undefined;
}

/** Error returned by the execution server for one request (bad path, missing file …). */
export class ExecRequestError extends Error {
  override readonly name = "ExecRequestError";
  constructor(readonly body: ExecErrorBody) {
    super(body.message);
  }
}

/**
 * Host side of the execution-server protocol: one Unix-socket connection per sandbox,
 * requests multiplexed by id. If the connection drops, every waiting call fails at once
 * with a sandbox failure instead of hanging.
 */
export class ExecClient {
  readonly #socket: Socket;
  readonly #waiters = new Map<number, Waiter>();
  #nextId = 1;
  #closedError: Error | undefined;

  /** Called once when the connection ends for any reason other than `close()`. */
  onDisconnect: (() => void) | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.setEncoding("utf8");
    const decoder = new JsonLineDecoder((value) => this.#onMessage(value as ExecResponse | ExecEvent));
    socket.on("data", (chunk: string) => decoder.push(chunk));
    socket.on("close", () => {
      const wasOpen = this.#closedError === undefined;
      this.#failAll(sandboxFailure("crashed", "connection to the execution server was lost"));
      if (wasOpen) this.onDisconnect?.();
    });
    socket.on("error", () => undefined);
  }

  static connect(socketPath: string): Promise<ExecClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      socket.once("connect", () => {
        socket.removeAllListeners("error");
        resolve(new ExecClient(socket));
      });
      socket.once("error", (error) =>
        reject(
          sandboxFailure(
            "not_ready",
            `cannot connect to the execution server at ${socketPath}: ${error.message}`,
          ),
        ),
      );
    });
  }

  /**
   * Sends one request; `onSent` receives its id (so the caller can cancel it), `onEvent` what
   * the request reports while it runs.
   */
  request<Op extends ExecOp>(
    body: Extract<ExecRequestBody, { op: Op }>,
    onSent?: (id: number) => void,
    onEvent?: (event: ExecEvent) => void,
  ): Promise<ExecResultByOp[Op]> {
    if (this.#closedError) return Promise.reject(this.#closedError);
    const id = this.#nextId++;
    return new Promise<ExecResultByOp[Op]>((resolve, reject) => {
      this.#waiters.set(id, { resolve: resolve as (value: unknown) => void, reject, onEvent });
      this.#socket.write(encodeJsonLine({ ...body, id }));
      onSent?.(id);
    });
  }

  /** Closes the connection; calls still waiting fail with `reason`. */
  close(reason: Error = sandboxFailure("closed", "the sandbox is closed")): void {
    this.#failAll(reason);
    this.#socket.destroy();
  }

  #onMessage(message: ExecResponse | ExecEvent): void {
    const waiter = this.#waiters.get(message.id);
    if (!waiter) return;
    if ("event" in message) {
      waiter.onEvent?.(message);
      return;
    }
    const response = message;
    this.#waiters.delete(response.id);
    if (response.ok) waiter.resolve(response.result);
    else waiter.reject(new ExecRequestError(response.error));
  }

  #failAll(error: Error): void {
    this.#closedError ??= error;
    for (const waiter of this.#waiters.values()) waiter.reject(this.#closedError);
    this.#waiters.clear();
  }
}
