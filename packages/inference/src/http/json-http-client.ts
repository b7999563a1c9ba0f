import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Agent, request, errors as undiciErrors } from "undici";
import { InferenceFailure } from "../inference-failure";
import { CallSignal } from "./call-signal";

/** Options of the pooled HTTP client shared by all backends. */
export interface JsonHttpClientOptions {
  /** Keep-alive connections per backend origin. Default 256. */
  connectionsPerOrigin?: number;
  /** Time to establish a TCP connection, in ms. Default 5_000. */
  connectTimeoutMs?: number;
  /** Idle keep-alive sockets close after this many ms. Default 60_000. */
  keepAliveTimeoutMs?: number;
  /**
   * After an interrupted stream's end of the connection closed, how long the server may take to
   * stop sending before the connection is cut, in ms. Default 2_000.
   */
  interruptGraceMs?: number;
}

export interface CallOptions {
  /** Aborts the call (job cancelled). */
  signal?: AbortSignal;
  /**
   * Streams only: stops reading and ends the call early, resolving (not rejecting) with what
   * arrived so far (an `abort-and-continue` weight sync keeps the generated tokens).
   */
  interrupt?: AbortSignal;
  /** Absolute deadline in epoch ms. */
  deadlineMs?: number;
  /** Backend id, for error messages. */
  backendId: string;
}

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

/**
 * The first blank line ending a server-sent event in `text` at or after `from` (`\r?\n\r?\n`):
 * where the event stops and where the next begins; null until a whole one has arrived.
 */
export function findEventEnd(text: string, from: number): { at: number; next: number } | null {
  for (let newline = text.indexOf("\n", from); newline !== -1; newline = text.indexOf("\n", newline + 1)) {
    const after = text.charCodeAt(newline + 1);
    const at = newline > from && text.charCodeAt(newline - 1) === CR ? newline - 1 : newline;
    if (after === LF) return { at, next: newline + 2 };
    if (after === CR) {
      const afterCr = text.charCodeAt(newline + 2);
      if (afterCr === LF) return { at, next: newline + 3 };
      if (Number.isNaN(afterCr)) return null;
    }
    if (Number.isNaN(after)) return null;
  }
  return null;
}

const CR = 13;
const LF = 10;

/** The `data` of one event: its `data:` lines (one leading space dropped each), joined by newlines. */
export function eventData(event: string): string {
  if (event.startsWith("data:") && !event.includes("\n")) {
    return event.charCodeAt(5) === 32 ? event.slice(6) : event.slice(5);
  }
  return event
    .split(/\r?\n/)
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).replace(/^ /, ""))
    .join("\n");
}

/**
 * Reads `response` as server-sent events, handing each event's `data` to `onData` (not the closing
 * `[DONE]`); resolves at its end, rejects on a stream error or when `onData` throws. Reads by
 * `data` events (one per chunk, i.e. per token), not an async iterator (a promise per chunk).
 */
function readEvents(response: IncomingMessage, onData: (data: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    response.setEncoding("utf8");
    const onChunk = (chunk: string) => {
      buffered += chunk;
      // One event per token: find each event's end by index, never re-scanning or copying the rest.
      let start = 0;
      try {
        for (let end = findEventEnd(buffered, start); end !== null; end = findEventEnd(buffered, start)) {
          const data = eventData(buffered.slice(start, end.at));
          start = end.next;
          if (data !== "" && data !== "[DONE]") onData(data);
        }
      } catch (error) {
        response.off("data", onChunk);
        response.destroy();
        reject(error);
        return;
      }
      if (start > 0) buffered = buffered.slice(start);
    };
    response.on("data", onChunk);
    response.once("end", () => resolve());
    response.once("error", reject);
    // A connection cut before the end (`aborted`, then `close` without `end`).
    response.once("close", () => {
      if (!response.complete) reject(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
    });
  });
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A pooled JSON-over-HTTP client (undici keeps connections per origin alive, so thousands of
 * concurrent generations do not pay connection set-up). Every failure becomes an `InferenceFailure`.
 */
export class JsonHttpClient {
  private readonly agent: Agent;
  private readonly streamAgents: { http: HttpAgent; https: HttpsAgent };
  private readonly interruptGraceMs: number;

  constructor(options: JsonHttpClientOptions = {}) {
    const streamAgentOptions = {
      keepAlive: true,
      maxSockets: options.connectionsPerOrigin ?? 256,
      timeout: options.keepAliveTimeoutMs ?? 60_000,
    };
    this.interruptGraceMs = options.interruptGraceMs ?? 2_000;
    this.streamAgents = {
      http: new HttpAgent(streamAgentOptions),
      https: new HttpsAgent(streamAgentOptions),
    };
    this.agent = new Agent({
      connections: options.connectionsPerOrigin ?? 256,
      connect: { timeout: options.connectTimeoutMs ?? 5_000 },
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 60_000,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  }

  async postJson(url: string, body: unknown, options: CallOptions): Promise<unknown> {
    const text = await this.call(url, { method: "POST", body: JSON.stringify(body) }, options);
    return this.parseJson(text, url, options.backendId);
  }

  /**
   * POSTs JSON and reads a server-sent event stream, handing each event's `data` to `onData` (the
   * closing `[DONE]` is not handed over). A server that answers with a plain JSON body instead is
   * read as one (`{ json }`). `interrupt` ends the stream early without an error: our end of the
   * connection closes and the events the server sent until it noticed are still delivered.
   *
   * Streams go through `node:http` rather than undici: an aborted undici response leaves its
   * socket open until the server writes again, so the server would decode (and count) tokens the
   * client has stopped reading; destroying a `node:http` request closes the connection at once.
   */
  async postEventStream(
    url: string,
    body: unknown,
    options: CallOptions,
    onData: (data: string) => void,
  ): Promise<{ type: "stream"; isInterrupted: boolean } | { type: "json"; json: unknown }> {
    const method = "POST";
    const calling = new CallSignal(options.signal, options.deadlineMs);
    const { signal } = calling;
    const isHttps = url.startsWith("https:");
    let outgoing: ClientRequest | null = null;
    let hasResponse = false;
    let isInterrupted = false;
    let graceTimer: NodeJS.Timeout | undefined;
    // Stopping a stream: our side of the connection ends (the server sees the client leave and
    // stops generating) and the answer is read to its end, so that every token the server sent
    // before it noticed arrives; a server that goes on regardless is cut off after a grace.
    const onInterrupt = () => {
      isInterrupted = true;
      // Before the answer's headers the request may already be generating (its first chunk on
      // the wire): half-close as well, unless no connection exists yet (then nothing was sent).
      if (!hasResponse && !outgoing?.socket) {
        outgoing?.destroy();
        return;
      }
      outgoing?.socket?.end();
      graceTimer = setTimeout(() => outgoing?.destroy(), this.interruptGraceMs);
      graceTimer.unref();
    };
    const { interrupt } = options;
    if (interrupt?.aborted) onInterrupt();
    else interrupt?.addEventListener("abort", onInterrupt, { once: true });
    const wasInterrupted = () => isInterrupted && !options.signal?.aborted && !calling.isDeadlinePassed;
    try {
      const payload = JSON.stringify(body);
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        outgoing = (isHttps ? httpsRequest : httpRequest)(
          url,
          {
            method,
            agent: isHttps ? this.streamAgents.https : this.streamAgents.http,
            headers: {
              "content-type": "application/json",
              "content-length": Buffer.byteLength(payload),
              accept: "text/event-stream",
            },
            ...(signal && { signal }),
          },
          resolve,
        );
        outgoing.on("error", reject);
        if (isInterrupted) outgoing.destroy();
        outgoing.end(payload);
      });
      hasResponse = true;
      const status = response.statusCode ?? 0;
      if (
        status < 200 ||
        status >= 300 ||
        !String(response.headers["content-type"]).includes("event-stream")
      ) {
        const chunks: Buffer[] = [];
        for await (const chunk of response) chunks.push(chunk as Buffer);
        const text = Buffer.concat(chunks).toString("utf8");
        this.checkStatus(status, text, url, method, options.backendId);
        return { type: "json", json: this.parseJson(text, url, options.backendId) };
      }
      await readEvents(response, onData);
      return { type: "stream", isInterrupted: wasInterrupted() };
    } catch (error) {
      if (wasInterrupted()) return { type: "stream", isInterrupted: true };
      throw this.failureOf(error, url, method, options, calling);
    } finally {
      calling.dispose();
      clearTimeout(graceTimer);
      interrupt?.removeEventListener("abort", onInterrupt);
    }
  }

  getText(url: string, options: CallOptions): Promise<string> {
    return this.call(url, { method: "GET" }, options);
  }

  close(): Promise<void> {
    this.streamAgents.http.destroy();
    this.streamAgents.https.destroy();
    return this.agent.close();
  }

  private async call(
    url: string,
    init: { method: "GET" | "POST"; body?: string },
    options: CallOptions,
  ): Promise<string> {
    const calling = new CallSignal(options.signal, options.deadlineMs);
    const { signal } = calling;
    try {
      const response = await request(url, {
        method: init.method,
        body: init.body,
        headers: init.body === undefined ? {} : { "content-type": "application/json" },
        dispatcher: this.agent,
        signal,
      });
      const text = await response.body.text();
      this.checkStatus(response.statusCode, text, url, init.method, options.backendId);
      return text;
    } catch (error) {
      throw this.failureOf(error, url, init.method, options, calling);
    } finally {
      calling.dispose();
    }
  }

  private checkStatus(status: number, text: string, url: string, method: string, backendId: string): void {
    if (status >= 200 && status < 300) return;
    throw new InferenceFailure(
      "http-status",
      `${backendId}: ${method} ${url} answered ${status}: ${text.slice(0, 300)}`,
      { backendId, status },
    );
  }

  private parseJson(text: string, url: string, backendId: string): unknown {
    try {
      return JSON.parse(text);
    } catch (cause) {
      throw new InferenceFailure("bad-response", `${backendId}: response of POST ${url} is not JSON`, {
        backendId,
        cause,
      });
    }
  }

  private failureOf(
    error: unknown,
    url: string,
    method: string,
    options: CallOptions,
    calling: CallSignal,
  ): InferenceFailure {
    const { backendId, signal } = options;
    if (error instanceof InferenceFailure) return error;
    if (signal?.aborted) {
      return new InferenceFailure("aborted", `${backendId}: call aborted by the caller`, {
        backendId,
        cause: error,
      });
    }
    if (calling.isDeadlinePassed) {
      return new InferenceFailure("deadline", `${backendId}: deadline passed before ${url} answered`, {
        backendId,
        cause: error,
      });
    }
    const code = errorCode(error);
    if ((code && CONNECTION_CODES.has(code)) || error instanceof undiciErrors.SocketError) {
      return new InferenceFailure(
        "connection",
        `${backendId}: cannot reach ${url} (${code ?? "socket error"})`,
        {
          backendId,
          cause: error,
        },
      );
    }
    return new InferenceFailure("bad-response", `${backendId}: ${method} ${url} failed: ${String(error)}`, {
      backendId,
      cause: error,
    });
  }
}
