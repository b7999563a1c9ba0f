import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { formatIssues } from "@raas/shared";
import { ZodError } from "zod";
import type { SimulatedModel } from "../engine/simulated-model";
import { createChatCompletionsProtocol } from "./chat-completions-protocol";
import { renderPrometheusMetrics } from "./prometheus-metrics";
import {
  nemoGenerateProtocol,
  sglangGenerateProtocol,
  vllmCompletionsProtocol,
  type WireProtocol,
} from "./protocols";

/**
 * Injected faults for failure tests. `http-500` answers generations with a 500, `drop-connection`
 * destroys the socket before any byte, `hang` never answers, `bad-body` returns JSON missing the
 * token ids (a stream: chunks without them), `unhealthy` fails `/health`. Applies to the next `remaining` requests (default: all).
 */
export interface SimulatorFault {
  kind: "http-500" | "drop-connection" | "hang" | "bad-body" | "unhealthy";
  remaining?: number;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface SimulatorServerOptions {
  model: SimulatedModel;
  modelName: string;
  host?: string;
  port?: number;
}

export interface SimulatorServer {
  url: string;
  server: Server;
  setFault(fault: SimulatorFault | null): void;
  /** Stops listening and drops every connection (in-flight requests die): a backend going down. */
  stopListening(): Promise<void>;
  /** Listens again on the same host and port with a cold prefix cache, like a restarted server. */
  listenAgain(): Promise<void>;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startSimulatorServer(options: SimulatorServerOptions): Promise<SimulatorServer> {
  const { model, modelName } = options;
  let fault: (SimulatorFault & { remaining: number }) | null = null;
  let requestSeq = 0;
  const chatProtocol = createChatCompletionsProtocol(model.family);

  const takeFault = (kinds: readonly SimulatorFault["kind"][]): SimulatorFault["kind"] | null => {
    if (!fault || !kinds.includes(fault.kind)) return null;
    const kind = fault.kind;
    fault.remaining -= 1;
    if (fault.remaining <= 0) fault = null;
    return kind;
  };

  const generate = async (
    protocol: WireProtocol,
    body: unknown,
    req: IncomingMessage,
    res: ServerResponse,
  ) => {
    const injected = takeFault(["http-500", "drop-connection", "hang", "bad-body"]);
    if (injected === "drop-connection") {
      req.socket.destroy();
      return;
    }
    if (injected === "hang") return;
    if (injected === "http-500") throw new HttpError(500, "injected fault: internal server error");
    const call = protocol.parse(body);
    const aborter = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) aborter.abort(new Error("client went away"));
    });
    // The server keeps a socket half-open while it answers, so "close" comes only at the next
    // write: the client's end of the connection says at once that it went away (a stopped stream).
    const onClientEnd = () => aborter.abort(new Error("client went away"));
    req.socket.once("end", onClientEnd);
    res.once("finish", () => req.socket.off("end", onClientEnd));
    const startedAt = performance.now();
    if (call.wantsStream && protocol.stream) {
      await streamGeneration(protocol.stream, call, aborter.signal, res, injected === "bad-body");
      return;
    }
    const outcome = await model.generate({ ...call, signal: aborter.signal });
    requestSeq += 1;
    const formatted = protocol.format(
      outcome,
      { model: modelName, requestId: String(requestSeq), latencyMs: performance.now() - startedAt },
      call,
    );
    sendJson(res, 200, injected === "bad-body" ? { choices: [{ text: "" }], meta_info: {} } : formatted);
  };

  /** Server-sent events: a chunk per decoded token chunk, the finish chunk, usage, `[DONE]`. */
  const streamGeneration = async (
    stream: NonNullable<WireProtocol["stream"]>,
    call: ReturnType<WireProtocol["parse"]>,
    signal: AbortSignal,
    res: ServerResponse,
    isBadBody: boolean,
  ) => {
    requestSeq += 1;
    const context = { model: modelName, requestId: String(requestSeq), latencyMs: 0 };
    const startedAt = performance.now();
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    // Headers at once (as vLLM sends them): the client knows the stream is open before any token.
    res.flushHeaders();
    const send = (event: unknown) => res.write(`data: ${JSON.stringify(event)}\n\n`);
    if (isBadBody) {
      send({ choices: [{ text: "" }] });
      res.end("data: [DONE]\n\n");
      return;
    }
    let outcome: Awaited<ReturnType<SimulatedModel["generate"]>>;
    try {
      outcome = await model.generate({
        ...call,
        signal,
        onTokens: (chunk) => send(stream.chunk(chunk, context)),
      });
    } catch (error) {
      // The client left (its end of the connection closed): end the answer cleanly, so that every
      // chunk sent so far reaches it, as a server that stops a request on disconnect does.
      if (signal.aborted) {
        if (!res.destroyed) res.end();
        return;
      }
      throw error;
    }
    context.latencyMs = performance.now() - startedAt;
    send(stream.finish(outcome, context));
    if (call.wantsUsage) send(stream.usage(outcome, context));
    res.end("data: [DONE]\n\n");
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/health") {
      const isUnhealthy = fault?.kind === "unhealthy";
      res.writeHead(isUnhealthy ? 503 : 200).end();
      return;
    }
    if (req.method === "GET" && path === "/metrics") {
      const text = renderPrometheusMetrics(
        model.counters,
        {
          running: model.slots.runningCount,
          waiting: model.slots.waitingCount,
          cacheBlocks: model.cache.size,
          cacheCapacityBlocks: model.cache.capacityBlocks,
        },
        modelName,
      );
      res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end(text);
      return;
    }
    if (req.method === "GET" && path === "/v1/models") {
      sendJson(res, 200, {
        object: "list",
        data: [{ id: modelName, object: "model", owned_by: "raas-simulator" }],
      });
      return;
    }
    if (req.method === "POST" && (path === "/v1/completions" || path === "/generate")) {
      const body = await readJson(req);
      const protocol =
        path === "/v1/completions"
          ? vllmCompletionsProtocol
          : typeof body === "object" && body !== null && "input_ids" in body
            ? sglangGenerateProtocol
            : nemoGenerateProtocol;
      await generate(protocol, body, req, res);
      return;
    }
    if (req.method === "POST" && path === "/v1/chat/completions") {
      await generate(chatProtocol, await readJson(req), req, res);
      return;
    }
    throw new HttpError(404, `no route ${req.method} ${path}`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      if (error instanceof ZodError) {
        const detail = formatIssues(error.issues, { root: "body" });
        sendJson(res, 400, { error: { message: `invalid request: ${detail}`, type: "BadRequestError" } });
      } else if (error instanceof HttpError) {
        sendJson(res, error.status, { error: { message: error.message } });
      } else if (!res.destroyed) {
        sendJson(res, 500, { error: { message: error instanceof Error ? error.message : String(error) } });
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  const listen = (port: number, host: string) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      // Resolves also when the server was already stopped (the callback then carries an error).
      server.close(() => resolve());
      server.closeAllConnections();
    });
  await listen(options.port ?? 0, options.host ?? "127.0.0.1");
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    server,
    setFault(next) {
      fault = next ? { ...next, remaining: next.remaining ?? Number.POSITIVE_INFINITY } : null;
    },
    stopListening: stop,
    listenAgain: () => {
      model.cache.clear();
      return listen(address.port, address.address);
    },
    close: stop,
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res
    .writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
    .end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, "request body too large");
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpError(400, "request body is not valid JSON");
  }
}
