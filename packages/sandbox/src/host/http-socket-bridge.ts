import { chmodSync, rmSync } from "node:fs";
import { Agent, createServer, type Server } from "node:http";
import { guardBridgeConnections } from "./http-bridge-connections";
import { createBridgeRequestListener } from "./http-bridge-forward";

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
  /**
   * Most connections the sandbox may hold open at once; one more is closed as soon as it is
   * accepted (and counted). Each open connection may hold one upstream connection too, so this
   * bounds the descriptors one sandbox costs the host process. Default 32.
   */
  maxConnections?: number;
  /** Time a request's headers may take to arrive, in ms; then 408 and the connection closes. Default 10_000. */
  headersTimeoutMs?: number;
  /**
   * Time a whole request (headers and body) may take to arrive, in ms; then 408 and the connection
   * closes (the request forwarded so far is aborted). The answer may take longer (a stream).
   * Default 30_000.
   */
  requestTimeoutMs?: number;
  /** Told of every connection refused over `maxConnections` and every request that arrived too slowly. */
  onRefusal?: (refusal: BridgeRefusal) => void;
}

/** Why the bridge closed a connection: one too many, or a request sent too slowly. */
export type BridgeRefusal = "connections" | "timeout";

/** Defaults of the bridge's caps: what one sandbox may hold of the host's connections. */
const BRIDGE_DEFAULTS = {
  maxConnections: 32,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
} as const;

/** How often the timeouts above are checked, in ms (node's default is 30 s). */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

export interface HttpSocketBridge {
  /** Requests forwarded so far. */
  readonly forwarded: number;
  /** Connections closed so far for being one too many, and requests for arriving too slowly. */
  readonly refused: Readonly<Record<BridgeRefusal, number>>;
  /** Connections open from the sandbox right now. */
  readonly openConnections: number;
  close(): Promise<void>;
}

/** POST paths of the gateway's faces: OpenAI chat and Responses, Anthropic Messages. */
const GATEWAY_POST_PATHS = new Set([
  "/v1/chat/completions",
  "/v1/responses",
  "/v1/messages",
  "/v1/messages/count_tokens",
]);

/**
 * The paths of the gateway a harness may call: its API faces, the model list, and `HEAD /`
 * (Claude Code's reachability check before its first call).
 */
export function isGatewayRequest(method: string, path: string): boolean {
  return (
    (method === "POST" && GATEWAY_POST_PATHS.has(path)) ||
    (method === "GET" && path === "/v1/models") ||
    (method === "HEAD" && path === "/")
  );
}

/**
 * Serves HTTP on a Unix socket the sandbox can reach and forwards only the allowed requests to
 * one fixed target prefix, bodies streamed both ways (SSE included). The sandbox reaches that
 * prefix and nothing else of the host: no other path, no other host, no header picks the target.
 *
 * The bridge runs in the host's process, whose descriptor table every job shares: a sandbox
 * holding thousands of half-sent requests once took it from 198 to 19,999 of 20,000. So the
 * sandbox gets at most `maxConnections` connections (and as many upstream), one more is closed
 * at once, and a request must arrive whole within its timeouts.
 */
export async function startHttpSocketBridge(options: HttpSocketBridgeOptions): Promise<HttpSocketBridge> {
  const target = new URL(options.targetUrl);
  const maxConnections = options.maxConnections ?? BRIDGE_DEFAULTS.maxConnections;
  let forwarded = 0;
  const refused: Record<BridgeRefusal, number> = { connections: 0, timeout: 0 };
  const refuse = (refusal: BridgeRefusal) => {
    refused[refusal] += 1;
    options.onRefusal?.(refusal);
  };
  // Connections to the target stay open between calls: a harness's calls skip TCP set-up. One
  // per sandbox connection at most, so the sandbox's cap bounds these too.
  const agent = new Agent({ keepAlive: true, maxSockets: maxConnections });
  const server = createServer(
    {
      headersTimeout: options.headersTimeoutMs ?? BRIDGE_DEFAULTS.headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs ?? BRIDGE_DEFAULTS.requestTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    createBridgeRequestListener({
      target,
      prefix: target.pathname.replace(/\/+$/, ""),
      agent,
      allow: options.allow,
      onForwarded: () => {
        forwarded += 1;
      },
    }),
  );
  const connections = guardBridgeConnections(server, maxConnections, refuse);
  await listenOnSocket(server, options.socketPath);
  return {
    get forwarded() {
      return forwarded;
    },
    refused,
    get openConnections() {
      return connections.open;
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

/** Listens on a fresh socket file any uid may connect to. */
async function listenOnSocket(server: Server, socketPath: string): Promise<void> {
  rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      // The sandbox may run as another uid; the directory it sits in decides who can reach it.
      chmodSync(socketPath, 0o666);
      resolve();
    });
  });
}
