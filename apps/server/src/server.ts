import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ControlPlaneAuthOptions, createControlPlaneHandler } from "@raas/api";
import type { EngineOptions, RolloutEngine, TaskHandler } from "@raas/engine";
import type { Logger } from "pino";
import { composeEngine, type StoreConfig } from "./compose";
import { createServerLogger } from "./logger";

/** Everything `startServer` needs; `main.ts` builds it from the environment. */
export interface ServerConfig {
  /** TCP port; 0 picks a free one (tests). Default 8080. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** Default `{ kind: "memory" }`. */
  store?: StoreConfig;
  /**
   * Bearer tokens. When neither an admin nor a trainer token is given, the server generates a
   * random admin token at start (returned as `auth.adminToken`, printed by `main.ts`), so an
   * embedded server is never writable without a token.
   */
  auth?: Partial<ControlPlaneAuthOptions>;
  pools?: EngineOptions["pools"];
  handlers?: TaskHandler[];
  /** Largest request body in bytes. Default 1_048_576. */
  maxBodyBytes?: number;
  /** Running stages get this long to finish on close, in ms. Default 10_000. */
  shutdownGraceMs?: number;
  /** A pino logger; default JSON on stdout at `logLevel`. */
  logger?: Logger;
  /** Used when no logger is given. Default "info". */
  logLevel?: string;
}

export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  port: number;
  /** Effective auth, including a generated admin token. */
  auth: ControlPlaneAuthOptions;
  /** True when `auth.adminToken` was generated at start. */
  isAdminTokenGenerated: boolean;
  engine: RolloutEngine;
  storeKind: "memory" | "pglite" | "postgres";
  server: Server;
  logger: Logger;
  /** Stops accepting requests, ends open streams, stops the engine, closes the store. Idempotent. */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Starts engine and HTTP server in this process. */
export async function startServer(config: ServerConfig = {}): Promise<RunningServer> {
  const logger = config.logger ?? createServerLogger(config.logLevel ?? "info");
  const { auth, isAdminTokenGenerated } = resolveAuth(config.auth);
  const composed = await composeEngine({
    store: config.store ?? { kind: "memory" },
    logger: logger.child({ component: "engine" }),
    ...(config.pools ? { pools: config.pools } : {}),
    ...(config.handlers ? { handlers: config.handlers } : {}),
  });
  await composed.engine.start();
  const handler = createControlPlaneHandler({
    engine: composed.engine,
    auth,
    logger: logger.child({ component: "api" }),
    ...(config.maxBodyBytes !== undefined ? { maxBodyBytes: config.maxBodyBytes } : {}),
  });
  const server = createServer({ keepAliveTimeout: 65_000, requestTimeout: 120_000 }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port ?? 8080, config.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  logger.info(
    { url, store: composed.storeKind, handlerKinds: composed.engine.handlerKinds() },
    "server listening",
  );

  let closing: Promise<void> | null = null;
  const close = (options: { graceMs?: number } = {}) => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      handler.close();
      await composed.engine.stop({ graceMs: options.graceMs ?? config.shutdownGraceMs ?? 10_000 });
      // Long-polls and SSE streams would hold the server open; the engine is stopped, so end them.
      server.closeAllConnections();
      await closed;
      await composed.close();
      logger.info({ url }, "server stopped");
    })();
    return closing;
  };

  return {
    url,
    port: address.port,
    auth,
    isAdminTokenGenerated,
    engine: composed.engine,
    storeKind: composed.storeKind,
    server,
    logger,
    close,
  };
}

function resolveAuth(given: Partial<ControlPlaneAuthOptions> = {}): {
  auth: ControlPlaneAuthOptions;
  isAdminTokenGenerated: boolean;
} {
  const auth: ControlPlaneAuthOptions = { ...given, requireViewerToken: given.requireViewerToken ?? false };
  if (auth.adminToken || auth.trainerToken) return { auth, isAdminTokenGenerated: false };
  return {
    auth: { ...auth, adminToken: `raas_${randomBytes(24).toString("base64url")}` },
    isAdminTokenGenerated: true,
  };
}
