import { Agent, request, errors as undiciErrors } from "undici";
import { InferenceFailure } from "../inference-failure";

/** Options of the pooled HTTP client shared by all backends. */
export interface JsonHttpClientOptions {
  /** Keep-alive connections per backend origin. Default 256. */
  connectionsPerOrigin?: number;
  /** Time to establish a TCP connection, in ms. Default 5_000. */
  connectTimeoutMs?: number;
  /** Idle keep-alive sockets close after this many ms. Default 60_000. */
  keepAliveTimeoutMs?: number;
}

export interface CallOptions {
  /** Aborts the call (job cancelled). */
  signal?: AbortSignal;
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

  constructor(options: JsonHttpClientOptions = {}) {
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
    try {
      return JSON.parse(text);
    } catch (cause) {
      throw new InferenceFailure(
        "bad-response",
        `${options.backendId}: response of POST ${url} is not JSON`,
        {
          backendId: options.backendId,
          cause,
        },
      );
    }
  }

  getText(url: string, options: CallOptions): Promise<string> {
    return this.call(url, { method: "GET" }, options);
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private async call(
    url: string,
    init: { method: "GET" | "POST"; body?: string },
    options: CallOptions,
  ): Promise<string> {
    const { backendId, signal } = options;
    const signals: AbortSignal[] = signal ? [signal] : [];
    let deadline: AbortSignal | undefined;
    if (options.deadlineMs !== undefined) {
      deadline = AbortSignal.timeout(Math.max(0, options.deadlineMs - Date.now()));
      signals.push(deadline);
    }
    const combined = signals.length > 0 ? AbortSignal.any(signals) : undefined;
    try {
      const response = await request(url, {
        method: init.method,
        body: init.body,
        headers: init.body === undefined ? {} : { "content-type": "application/json" },
        dispatcher: this.agent,
        signal: combined,
      });
      const text = await response.body.text();
      if (response.statusCode < 200 || response.statusCode >= 300) {
        throw new InferenceFailure(
          "http-status",
          `${backendId}: ${init.method} ${url} answered ${response.statusCode}: ${text.slice(0, 300)}`,
          { backendId, status: response.statusCode },
        );
      }
      return text;
    } catch (error) {
      if (error instanceof InferenceFailure) throw error;
      if (signal?.aborted) {
        throw new InferenceFailure("aborted", `${backendId}: call aborted by the caller`, {
          backendId,
          cause: error,
        });
      }
      if (deadline?.aborted) {
        throw new InferenceFailure("deadline", `${backendId}: deadline passed before ${url} answered`, {
          backendId,
          cause: error,
        });
      }
      const code = errorCode(error);
      if ((code && CONNECTION_CODES.has(code)) || error instanceof undiciErrors.SocketError) {
        throw new InferenceFailure(
          "connection",
          `${backendId}: cannot reach ${url} (${code ?? "socket error"})`,
          {
            backendId,
            cause: error,
          },
        );
      }
      throw new InferenceFailure(
        "bad-response",
        `${backendId}: ${init.method} ${url} failed: ${String(error)}`,
        {
          backendId,
          cause: error,
        },
      );
    }
  }
}
