import { chmodSync, rmSync } from "node:fs";
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from "node:http";

export interface HttpSocketBridgeOptions {
  /** Host path of the Unix socket to listen on (inside a directory the sandbox has bound). */
  socketPath: string;
  /**
   * Where allowed requests go: `http://host:port/prefix`. A request for `/v1/models` is sent to
   * `<prefix>/v1/models` (e.g. the prefix `/gateway/<session token>` of one job's gateway).
   */
  targetUrl: string;
  /** Which requests pass, by method and path (without query). Everything else gets 404. */
  allow: (method: string, path: string) => boolean;
}

export interface HttpSocketBridge {
  /** Requests forwarded so far. */
  readonly forwarded: number;
  close(): Promise<void>;
}

/** The paths of the OpenAI-compatible gateway a harness may call. */
export function isGatewayRequest(method: string, path: string): boolean {
  return (
    (method === "POST" && path === "/v1/chat/completions") || (method === "GET" && path === "/v1/models")
  );
}

/**
 * Serves HTTP on a Unix socket the sandbox can reach and forwards only the allowed requests to
 * one fixed target prefix, bodies streamed both ways (SSE included). The sandbox reaches that
 * prefix and nothing else of the host: no other path, no other host, no header picks the target.
 */
export async function startHttpSocketBridge(options: HttpSocketBridgeOptions): Promise<HttpSocketBridge> {
  const target = new URL(options.targetUrl);
  const prefix = target.pathname.replace(/\/+$/, "");
  let forwarded = 0;
  // Connections to the target stay open between calls: a harness's calls skip TCP set-up.
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? "/";
    const queryAt = raw.indexOf("?");
    const path = queryAt === -1 ? raw : raw.slice(0, queryAt);
    const method = req.method ?? "GET";
    if (!options.allow(method, path)) {
      const body = JSON.stringify({
        error: { code: "NOT_FOUND", message: `${method} ${path.slice(0, 200)} is not served here` },
      });
      res.writeHead(404, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
      req.resume();
      return;
    }
    forwarded += 1;
    const headers: Record<string, string> = {};
    for (const name of ["content-type", "content-length", "accept"]) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method,
        agent,
        path: `${prefix}${raw}`,
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
  });
  rmSync(options.socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.socketPath, () => {
      server.off("error", reject);
      // The sandbox may run as another uid; the directory it sits in decides who can reach it.
      chmodSync(options.socketPath, 0o666);
      resolve();
    });
  });
  return {
    get forwarded() {
      return forwarded;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
        rmSync(options.socketPath, { force: true });
      }),
  };
}
