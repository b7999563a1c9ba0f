import type { IncomingMessage, ServerResponse } from "node:http";
import {
  parseChatCompletionRequest,
  type RequestFailureData,
  requestFailure,
  type TChatCompletion,
} from "@raas/shared";
import { toRequestFailure } from "../errors/to-request-failure";
import type { ControlPlaneGateway, GatewayEvent } from "../gateway.port";
import { assertInputDepth } from "../input-depth";
import { anthropicErrorBody, sendAnthropicError } from "./anthropic-error";
import { GatewayEventStream } from "./gateway-event-stream";
import type { GatewaySessionLimiter } from "./gateway-session-limiter";
import { readJsonBody } from "./read-json-body";
import { sendJson } from "./send-json";

/** The longest `User-Agent` a call record keeps. */
const MAX_USER_AGENT_CHARACTERS = 200;

/** Route label of the gateway's paths (the token is never a label). */
export const GATEWAY_PATH = "/gateway/{sessionToken}/v1/{operation}";

/**
 * What a gateway path asks for: OpenAI chat completions and models, Anthropic Messages (and its
 * token count), OpenAI Responses, or the `HEAD` probe of the base URL Anthropic's clients send.
 */
export type GatewayOperation = "chat" | "models" | "messages" | "count_tokens" | "responses" | "probe";

const OPERATION_OF_PATH: Readonly<Record<string, GatewayOperation>> = {
  "chat/completions": "chat",
  models: "models",
  messages: "messages",
  "messages/count_tokens": "count_tokens",
  responses: "responses",
};

const PATH_PATTERN =
  /^\/gateway\/([A-Za-z0-9_-]{1,200})(?:\/v1\/(chat\/completions|models|messages|messages\/count_tokens|responses)|(?:\/v1)?\/?)$/;

/** The session token and operation when `path` is a gateway path, else null. */
export function matchGatewayPath(path: string): { token: string; operation: GatewayOperation } | null {
  const match = PATH_PATTERN.exec(path);
  if (!match) return null;
  const operation = match[2] === undefined ? "probe" : (OPERATION_OF_PATH[match[2]] as GatewayOperation);
  return { token: match[1] as string, operation };
}

/** Whether `path`'s errors are answered in Anthropic's envelope (its clients show `error.message` there). */
export function isAnthropicGatewayPath(path: string): boolean {
  const operation = matchGatewayPath(path)?.operation;
  return operation === "messages" || operation === "count_tokens" || operation === "probe";
}

const METHOD_OF: Record<GatewayOperation, string> = {
  chat: "POST",
  models: "GET",
  messages: "POST",
  count_tokens: "POST",
  responses: "POST",
  probe: "HEAD",
};

/**
 * Serves a job's gateway under `/gateway/<session token>/`: `v1/chat/completions` (POST; JSON, or
 * Server-Sent Events with `stream: true`), `v1/models` (GET), Anthropic's `v1/messages` and
 * `v1/messages/count_tokens`, OpenAI's `v1/responses` (POST, streaming or not), and `HEAD` of the
 * base URL. The token in the path is the only credential (the harness's base URL); errors are the
 * REST error envelope, or Anthropic's on its routes.
 */
export async function serveGateway(options: {
  req: IncomingMessage;
  res: ServerResponse;
  gateway: ControlPlaneGateway | null;
  token: string;
  operation: GatewayOperation;
  maxBodyBytes: number;
  /** Caps the session's open requests (429 past it, before the body is read). Default none. */
  sessions?: GatewaySessionLimiter;
}): Promise<void> {
  const { req, res, gateway, token, operation } = options;
  if (!gateway) throw requestFailure("UNAVAILABLE", "this server runs no inference gateway");
  const method = METHOD_OF[operation];
  if (req.method !== method) {
    throw requestFailure("METHOD_NOT_ALLOWED", `this gateway route only accepts ${method}`, {
      details: { allow: [method] },
    });
  }
  if (operation === "models") {
    sendJson(res, 200, gateway.listModels(token));
    return;
  }
  if (operation === "probe") {
    gateway.authorize(token);
    res.writeHead(200, { "cache-control": "no-store" }).end();
    return;
  }
  const isAnthropic = operation === "messages" || operation === "count_tokens";
  if (options.sessions && !options.sessions.admit(token, res, isAnthropic ? sendAnthropicError : undefined))
    return;
  const body = await readJsonBody(req, options.maxBodyBytes);
  if (body === undefined)
    throw requestFailure("BAD_REQUEST", "the request body is empty: send a JSON request");
  // As every control-plane input: the gateway compares, copies and stores what a harness sends.
  assertInputDepth(body);
  const abort = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  const { signal } = abort;
  // Descriptive only (the record shows which client called): kept short.
  const userAgent = req.headers["user-agent"]?.slice(0, MAX_USER_AGENT_CHARACTERS);
  const callOptions = { signal, ...(userAgent !== undefined && { userAgent }) };
  switch (operation) {
    case "chat":
      return serveChat(res, gateway, token, body, callOptions);
    case "count_tokens":
      sendJson(res, 200, await gateway.countMessageTokens(token, body));
      return;
    case "messages":
      return serveFace(
        res,
        body,
        (options) => gateway.createMessage(token, body, { ...callOptions, ...options }),
        (failure) => ({
          event: "error",
          data: anthropicErrorBody(failure),
        }),
      );
    case "responses":
      return serveFace(
        res,
        body,
        (options) => gateway.createResponse(token, body, { ...callOptions, ...options }),
        (failure) => ({
          event: "error",
          data: { type: "error", code: failure.code, message: failure.message, param: null },
        }),
      );
  }
}

/** An Anthropic or Responses call: its answer as JSON, or its events when the body asks for `stream`. */
async function serveFace(
  res: ServerResponse,
  body: unknown,
  call: (options: { onEvent?: (event: GatewayEvent) => void }) => Promise<unknown>,
  errorEvent: (failure: RequestFailureData) => GatewayEvent,
): Promise<void> {
  const isStream =
    typeof body === "object" && body !== null && (body as { stream?: unknown }).stream === true;
  if (!isStream) {
    sendJson(res, 200, await call({}));
    return;
  }
  const stream = new GatewayEventStream(res);
  try {
    await call({ onEvent: (event) => stream.send(event) });
    stream.end();
  } catch (thrown) {
    // Before the stream opened the failure is the request's (a JSON error with its status).
    if (!stream.isOpen) throw thrown;
    stream.fail(errorEvent(toRequestFailure(thrown).failure));
  }
}

async function serveChat(
  res: ServerResponse,
  gateway: ControlPlaneGateway,
  token: string,
  body: unknown,
  callOptions: { signal: AbortSignal; userAgent?: string },
): Promise<void> {
  const request = parseChatCompletionRequest(body);
  if (!request.stream) {
    sendJson(res, 200, await gateway.complete(token, request, callOptions));
    return;
  }
  const stream = new ChunkStream(res);
  try {
    const completion = await gateway.complete(token, request, {
      ...callOptions,
      stream: { onStart: (head) => stream.open(head), onDelta: (delta) => stream.send(delta) },
    });
    stream.close(completion, request.stream_options?.include_usage === true);
  } catch (thrown) {
    // Before the stream opened the failure is the request's (a JSON error with its status).
    if (!stream.isOpen) throw thrown;
    stream.fail(toRequestFailure(thrown).failure);
  }
}

/**
 * OpenAI's `chat.completion.chunk` events, written as the answer is sampled: the role first,
 * reasoning and content deltas as they arrive, then the tool calls (whole: their arguments are
 * JSON only once closed), the finish reason, usage when asked, and `[DONE]`.
 */
class ChunkStream {
  private head: { id: string; created: number; model: string } | null = null;

  constructor(private readonly res: ServerResponse) {}

  get isOpen(): boolean {
    return this.head !== null;
  }

  open(head: { id: string; created: number; model: string }): void {
    this.head = head;
    this.res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
    });
    this.send({ role: "assistant", content: "" });
  }

  send(delta: Record<string, unknown>, finishReason: string | null = null): void {
    this.write({
      ...this.chunk(),
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    });
  }

  close(completion: TChatCompletion, includeUsage: boolean): void {
    const [choice] = completion.choices;
    (choice.message.tool_calls ?? []).forEach((call, index) => {
      this.send({ tool_calls: [{ index, id: call.id, type: "function", function: call.function }] });
    });
    this.send({}, choice.finish_reason);
    if (includeUsage) this.write({ ...this.chunk(), choices: [], usage: completion.usage });
    this.res.end("data: [DONE]\n\n");
  }

  /** A failure after the stream opened: an error event (as OpenAI-compatible servers send), then the end. */
  fail(failure: RequestFailureData): void {
    if (this.res.writableEnded) return;
    this.write({ error: { code: failure.code, message: failure.message } });
    this.res.end();
  }

  private chunk() {
    const head = this.head as { id: string; created: number; model: string };
    return { id: head.id, object: "chat.completion.chunk", created: head.created, model: head.model };
  }

  private write(event: unknown): void {
    if (!this.res.writableEnded) this.res.write(`data: ${JSON.stringify(event)}\n\n`);
  }
}
