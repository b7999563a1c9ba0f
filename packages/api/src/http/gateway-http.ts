import type { IncomingMessage, ServerResponse } from "node:http";
import { RaasError, type TChatCompletion, ZChatCompletionRequest } from "@raas/shared";
import type { ControlPlaneGateway } from "../gateway.port";
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
}): Promise<void> {
  const { req, res, gateway, token, operation } = options;
  if (!gateway) throw new RaasError("UNAVAILABLE", "this server runs no inference gateway");
  const method = operation === "models" ? "GET" : "POST";
  if (req.method !== method) {
    throw new RaasError("METHOD_NOT_ALLOWED", `this gateway route only accepts ${method}`, {
      details: { allow: [method] },
    });
  }
  if (operation === "models") {
    sendJson(res, 200, gateway.listModels(token));
    return;
  }
  const body = await readJsonBody(req, options.maxBodyBytes);
  if (body === undefined)
    throw new RaasError("BAD_REQUEST", "the request body is empty: send a chat completion request");
  const request = ZChatCompletionRequest.parse(body);
  const abort = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  const completion = await gateway.complete(token, request, abort.signal);
  if (request.stream) writeStream(res, completion, request.stream_options?.include_usage === true);
  else sendJson(res, 200, completion);
}

/** The completion as OpenAI's `chat.completion.chunk` events, then `[DONE]`. */
function writeStream(res: ServerResponse, completion: TChatCompletion, includeUsage: boolean): void {
  const [choice] = completion.choices;
  const { message } = choice;
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id: completion.id,
    object: "chat.completion.chunk",
    created: completion.created,
    model: completion.model,
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
  });
  const events: unknown[] = [chunk({ role: "assistant", content: "" })];
  if (message.reasoning_content) events.push(chunk({ reasoning_content: message.reasoning_content }));
  if (message.content) events.push(chunk({ content: message.content }));
  (message.tool_calls ?? []).forEach((call, index) => {
    events.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: call.function }] }));
  });
  events.push(chunk({}, choice.finish_reason));
  if (includeUsage) events.push({ ...chunk({}), choices: [], usage: completion.usage });
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    connection: "keep-alive",
  });
  res.end(`${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("")}data: [DONE]\n\n`);
}
