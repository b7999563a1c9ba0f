import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createSleepHandler,
  type EngineOptions,
  HandlerRegistry,
  type JobStore,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
} from "@raas/engine";
import { createTRPCClient, httpBatchLink, httpLink, splitLink } from "@trpc/client";
import {
  type ApiLogger,
  type AppRouter,
  type BenchmarkRunStore,
  type ControlPlaneAuthOptions,
  type ControlPlaneBackends,
  type ControlPlaneSandboxes,
  createControlPlaneHandler,
  type TokenTextDecoder,
  type WorkerStore,
} from "../../src/index";

export const TOKENS = { admin: "admin-secret", trainer: "trainer-secret", viewer: "viewer-secret" } as const;

export interface TestServer {
  url: string;
  engine: RolloutEngine;
  server: Server;
  close(): Promise<void>;
}

/** A real engine (memory store/queue, sleep handler) behind the real handler on an ephemeral port. */
export async function startTestServer(
  options: {
    auth?: Partial<ControlPlaneAuthOptions>;
    maxBodyBytes?: number;
    pools?: EngineOptions["pools"];
    logger?: ApiLogger;
    backends?: ControlPlaneBackends;
    benchmarks?: BenchmarkRunStore;
    sandboxes?: ControlPlaneSandboxes;
    workers?: WorkerStore;
    tokenText?: TokenTextDecoder;
    /** The engine's store (default a fresh MemoryJobStore), e.g. to add turns a test reads back. */
    store?: JobStore;
  } = {},
): Promise<TestServer> {
  const engine = new RolloutEngine({
    store: options.store ?? new MemoryJobStore(),
    queue: new MemoryJobQueue(),
    handlers: new HandlerRegistry().register(createSleepHandler()),
    ...(options.pools ? { pools: options.pools } : {}),
  });
  await engine.start();
  const handler = createControlPlaneHandler({
    engine,
    auth: {
      adminToken: TOKENS.admin,
      trainerToken: TOKENS.trainer,
      viewerToken: TOKENS.viewer,
      requireViewerToken: false,
      ...options.auth,
    },
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    collectProcessMetrics: false,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.backends ? { backends: options.backends } : {}),
    ...(options.benchmarks ? { benchmarks: options.benchmarks } : {}),
    ...(options.sandboxes ? { sandboxes: options.sandboxes } : {}),
    ...(options.workers ? { workers: options.workers } : {}),
    ...(options.tokenText ? { tokenText: options.tokenText } : {}),
  });
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    engine,
    server,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      handler.close();
      await engine.stop({ graceMs: 50 });
    },
  };
}

/** A typed tRPC client; batches queries, sends mutations one per request. */
export function trpcClient(url: string, token?: string) {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "query",
        true: httpBatchLink({ url: `${url}/trpc`, headers }),
        false: httpLink({ url: `${url}/trpc`, headers }),
      }),
    ],
  });
}

/** JSON over fetch: returns status, parsed body (or raw text when not JSON) and headers. */
export async function http(
  url: string,
  init: {
    method?: string;
    body?: unknown;
    rawBody?: string | Uint8Array;
    token?: string;
    headers?: Record<string, string>;
  } = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
): Promise<{ status: number; body: any; text: string; headers: Headers }> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | Uint8Array | undefined;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["content-type"] ??= "application/json";
  } else if (init.rawBody !== undefined) body = init.rawBody;
  const response = await fetch(url, {
    method: init.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, body: parsed, text, headers: response.headers };
}

/** A sleep-handler payload with stage durations in ms. */
export function sleepJob(
  ms: { initMs?: number; runMs?: number; evalMs?: number } = {},
  extra: Record<string, unknown> = {},
) {
  return { kind: "sleep", payload: { initMs: 5, runMs: 5, evalMs: 5, ...ms }, ...extra };
}
