import type { IncomingMessage, ServerResponse } from "node:http";
import {
  parseChatCompletionRequest,
  type RequestFailureData,
  requestFailure,
  type TChatCompletion,
} from "@raas/shared";
import { toRequestFailure } from "../errors/to-request-failure";
import type { ControlPlaneGateway } from "../gateway.port";
import { assertInputDepth } from "../input-depth";
import type { GatewaySessionLimiter } from "./gateway-session-limiter";
import { readJsonBody } from "./read-json-body";
import { sendJson } from "./send-json";

/** Route label of the gateway's paths (the token is never a label). */
export const GATEWAY_PATH = "/gateway/{sessionToken}/v1/{operation}";

const PATH_PATTERN = /^\/gateway\/([A-Za-z0-9_-]{1,200})\/v1\/(chat\/completions|models)$/;

/** The session token and operation when `path` is a gateway path, else null. */
export function matchGatewayPath(path: string): { token: string; operation: "chat" | "models" } | null {
  const match = PATH_PATTERN.exec(path);
  if (!match) return null;
  return { token: match[1] as string, operation: match[2] === "models" ? "models" : "chat" };
}

/**
 * Serves `/gateway/<session token>/v1/chat/completions` (POST; JSON, or Server-Sent Events with
 * `stream: true`) and `/gateway/<session token>/v1/models` (GET). The token in the path is the
 * only credential (the harness's `OPENAI_BASE_URL`); errors are the REST error envelope, whose
 * `error.message` OpenAI clients show.
 */
export async function serveGateway(options: {
  req: IncomingMessage;
  res: ServerResponse;
  gateway: ControlPlaneGateway | null;
  token: string;
  operation: "chat" | "models";
  maxBodyBytes: number;
  /** Caps the session's open chat requests (429 past it, before the body is read). Default none. */
  sessions?: GatewaySessionLimiter;
}): Promise<void> {
  const { req, res, gateway, token, operation } = options;
  if (!gateway) throw requestFailure("UNAVAILABLE", "this server runs no inference gateway");
  const method = operation === "models" ? "GET" : "POST";
  if (req.method !== method) {
    throw requestFailure("METHOD_NOT_ALLOWED", `this gateway route only accepts ${method}`, {
      details: { allow: [method] },
    });
  }
  if (operation === "models") {
    sendJson(res, 200, gateway.listModels(token));
    return;
  }
  if (options.sessions && !options.sessions.admit(token, res)) return;
  const body = await readJsonBody(req, options.maxBodyBytes);
  if (body === undefined)
    throw requestFailure("BAD_REQUEST", "the request body is empty: send a chat completion request");
  // As every control-plane input: the gateway compares, copies and stores what a harness sends.
  assertInputDepth(body);
  const request = parseChatCompletionRequest(body);
  const abort = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  if (!request.stream) {
    sendJson(res, 200, await gateway.complete(token, request, { signal: abort.signal }));
    return;
  }
  const stream = new ChunkStream(res);
  try {
    const completion = await gateway.complete(token, request, {
      signal: abort.signal,
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
