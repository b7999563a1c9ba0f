import { Agent, request, errors as undiciErrors } from "undici";
import { type InferenceFailure, inferenceFailure, isInferenceFailure } from "../inference-failure";
import { CallSignal } from "./call-signal";
import { Http1ConnectionPool } from "./http1-connection-pool";
import { type Http1Target, postForEvents } from "./http1-event-stream";

export { eventData, findEventEnd } from "./sse-events";

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
  /** Streamed calls' connections (see `postEventStream`). */
  private readonly streams: Http1ConnectionPool;
  private readonly targets = new Map<string, Http1Target>();
  private readonly interruptGraceMs: number;

  constructor(options: JsonHttpClientOptions = {}) {
    this.interruptGraceMs = options.interruptGraceMs ?? 2_000;
    this.streams = new Http1ConnectionPool({
      ...(options.connectionsPerOrigin !== undefined && {
        connectionsPerOrigin: options.connectionsPerOrigin,
      }),
      ...(options.connectTimeoutMs !== undefined && { connectTimeoutMs: options.connectTimeoutMs }),
      ...(options.keepAliveTimeoutMs !== undefined && { keepAliveTimeoutMs: options.keepAliveTimeoutMs }),
    });
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
   * Streams go over connections of our own (`Http1ConnectionPool`, one write per request and a
   * byte-level parser): node's `http` client costs several times more per request and per chunk,
   * paid on every generation's critical path; and an aborted undici response leaves its socket
   * open until the server writes again (the server would decode tokens nobody reads), where
   * destroying our socket closes the connection at once.
   */
  async postEventStream(
    url: string,
    body: unknown,
    options: CallOptions,
    onData: (data: string) => void,
  ): Promise<{ type: "stream"; isInterrupted: boolean } | { type: "json"; json: unknown }> {
    const method = "POST";
    const calling = new CallSignal(options.signal, options.deadlineMs);
    const { interrupt } = options;
    const wasInterrupted = () =>
      interrupt?.aborted === true && !options.signal?.aborted && !calling.isDeadlinePassed;
    try {
      const answer = await postForEvents(this.streams, {
        target: this.targetOf(url),
        payload: JSON.stringify(body),
        ...(calling.signal && { signal: calling.signal }),
        ...(interrupt && { interrupt }),
        interruptGraceMs: this.interruptGraceMs,
        onData,
      });
      if (answer.type === "other") {
        this.checkStatus(answer.status, answer.text, url, method, options.backendId);
        return { type: "json", json: this.parseJson(answer.text, url, options.backendId) };
      }
      return { type: "stream", isInterrupted: wasInterrupted() };
    } catch (error) {
      if (wasInterrupted()) return { type: "stream", isInterrupted: true };
      throw this.failureOf(error, url, method, options, calling);
    } finally {
      calling.dispose();
    }
  }

  getText(url: string, options: CallOptions): Promise<string> {
    return this.call(url, { method: "GET" }, options);
  }

  close(): Promise<void> {
    this.streams.close();
    return this.agent.close();
  }

  /** Origin, request target and `Host` of a URL, parsed once per URL (a backend has a few). */
  private targetOf(url: string): Http1Target {
    let target = this.targets.get(url);
    if (target) return target;
    const parsed = new URL(url);
    const isTls = parsed.protocol === "https:";
    if (!isTls && parsed.protocol !== "http:") {
      throw inferenceFailure("connection", `cannot reach ${url}: only http and https URLs are served`);
    }
    const port = parsed.port === "" ? (isTls ? 443 : 80) : Number(parsed.port);
    // IPv6 literals keep their brackets in `host` but not in the address to connect to.
    const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
    target = {
      origin: { key: `${parsed.protocol}//${parsed.host}`, host, port, isTls },
      path: `${parsed.pathname}${parsed.search}`,
      hostHeader: parsed.host,
    };
    if (this.targets.size >= 1_000) this.targets.clear();
    this.targets.set(url, target);
    return target;
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
    throw inferenceFailure(
      "http-status",
      `${backendId}: ${method} ${url} answered ${status}: ${text.slice(0, 300)}`,
      { backendId, status },
    );
  }

  private parseJson(text: string, url: string, backendId: string): unknown {
    try {
      return JSON.parse(text);
    } catch (cause) {
      throw inferenceFailure("bad-response", `${backendId}: response of POST ${url} is not JSON`, {
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
    if (isInferenceFailure(error)) return error;
    if (signal?.aborted) {
      return inferenceFailure("aborted", `${backendId}: call aborted by the caller`, {
        backendId,
        cause: error,
      });
    }
    if (calling.isDeadlinePassed) {
      return inferenceFailure("deadline", `${backendId}: deadline passed before ${url} answered`, {
        backendId,
        cause: error,
      });
    }
    const code = errorCode(error);
    if ((code && CONNECTION_CODES.has(code)) || error instanceof undiciErrors.SocketError) {
      return inferenceFailure("connection", `${backendId}: cannot reach ${url} (${code ?? "socket error"})`, {
        backendId,
        cause: error,
      });
    }
    return inferenceFailure("bad-response", `${backendId}: ${method} ${url} failed: ${String(error)}`, {
      backendId,
      cause: error,
    });
  }
}
