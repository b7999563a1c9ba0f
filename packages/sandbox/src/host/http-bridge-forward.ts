import { type Agent, type IncomingMessage, request, type ServerResponse } from "node:http";

/** What the bridge's request listener forwards to, and what it lets through. */
export interface BridgeForwardOptions {
  target: URL;
  /** The target's path prefix, without a trailing slash. */
  prefix: string;
  agent: Agent;
  allow: (method: string, path: string) => boolean;
  /** Told of each request that passes `allow`. */
  onForwarded: () => void;
}

/**
 * The bridge's request listener: a request `allow` refuses gets 404; any other is sent to the
 * target prefix with only its content headers and `user-agent` (the harness naming itself, which
 * the gateway records), the answer streamed back (503 if the target is
 * unreachable before it answers).
 */
export function createBridgeRequestListener(
  options: BridgeForwardOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const raw = req.url ?? "/";
    const queryAt = raw.indexOf("?");
    const path = queryAt === -1 ? raw : raw.slice(0, queryAt);
    const method = req.method ?? "GET";
    if (!options.allow(method, path)) {
      answerNotServed(req, res, method, path);
      return;
    }
    options.onForwarded();
    forwardRequest(options, req, res, method, raw);
  };
}

function answerNotServed(req: IncomingMessage, res: ServerResponse, method: string, path: string): void {
  const body = JSON.stringify({
    error: { code: "NOT_FOUND", message: `${method} ${path.slice(0, 200)} is not served here` },
  });
  res.writeHead(404, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
  req.resume();
}

function forwardRequest(
  options: BridgeForwardOptions,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  raw: string,
): void {
  const { target } = options;
  const headers: Record<string, string> = {};
  for (const name of ["content-type", "content-length", "accept", "user-agent"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      method,
      agent: options.agent,
      path: `${options.prefix}${raw}`,
      headers: { ...headers, host: target.host },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, {
        ...(answer.headers["content-type"] ? { "content-type": answer.headers["content-type"] } : {}),
        "cache-control": "no-store",
      });
      answer.pipe(res);
    },
  );
  upstream.once("error", (error) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = JSON.stringify({
      error: { code: "UNAVAILABLE", message: `gateway unreachable: ${error.message}` },
    });
    res.writeHead(503, { "content-type": "application/json" });
    res.end(body);
  });
  res.once("close", () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}
