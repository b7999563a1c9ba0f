import type { IncomingMessage, ServerResponse } from "node:http";
import type { SimulatedModel } from "../engine/simulated-model";
import type { FaultInjector } from "./fault-injector";
import type { WireProtocol } from "./protocols";
import { HttpError, sendJson } from "./simulator-http";

/** Answers one generation request in a wire protocol. */
export type GenerationHandler = (
  protocol: WireProtocol,
  body: unknown,
  req: IncomingMessage,
  res: ServerResponse,
) => Promise<void>;

type GenerationCall = ReturnType<WireProtocol["parse"]>;

/**
 * Generation under the injected faults: a whole answer, or server-sent events when the call asks
 * for a stream. A client that goes away aborts its generation.
 */
export function createGenerationHandler(
  model: SimulatedModel,
  modelName: string,
  faults: FaultInjector,
): GenerationHandler {
  let requestSeq = 0;
  const nextContext = (latencyMs: number) => {
    requestSeq += 1;
    return { model: modelName, requestId: String(requestSeq), latencyMs };
  };
  return async (protocol, body, req, res) => {
    const injected = faults.take(["http-500", "drop-connection", "hang", "bad-body"]);
    if (injected === "drop-connection") {
      req.socket.destroy();
      return;
    }
    if (injected === "hang") return;
    if (injected === "http-500") throw new HttpError(500, "injected fault: internal server error");
    const call = protocol.parse(body);
    const signal = abortWhenClientLeaves(req, res);
    const startedAt = performance.now();
    if (call.wantsStream && protocol.stream) {
      await streamGeneration(
        model,
        nextContext(0),
        { stream: protocol.stream, call, signal, res },
        injected === "bad-body",
      );
      return;
    }
    const outcome = await model.generate({ ...call, signal });
    const formatted = protocol.format(outcome, nextContext(performance.now() - startedAt), call);
    sendJson(res, 200, injected === "bad-body" ? { choices: [{ text: "" }], meta_info: {} } : formatted);
  };
}

function abortWhenClientLeaves(req: IncomingMessage, res: ServerResponse): AbortSignal {
  const aborter = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) aborter.abort(new Error("client went away"));
  });
  // The server keeps a socket half-open while it answers, so "close" comes only at the next
  // write: the client's end of the connection says at once that it went away (a stopped stream).
  const onClientEnd = () => aborter.abort(new Error("client went away"));
  req.socket.once("end", onClientEnd);
  res.once("finish", () => req.socket.off("end", onClientEnd));
  return aborter.signal;
}

/** Server-sent events: a chunk per decoded token chunk, the finish chunk, usage, `[DONE]`. */
async function streamGeneration(
  model: SimulatedModel,
  context: { model: string; requestId: string; latencyMs: number },
  {
    stream,
    call,
    signal,
    res,
  }: {
    stream: NonNullable<WireProtocol["stream"]>;
    call: GenerationCall;
    signal: AbortSignal;
    res: ServerResponse;
  },
  isBadBody: boolean,
): Promise<void> {
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
      onTokens: (chunk) => send(stream.chunk(chunk, context, call)),
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
}
