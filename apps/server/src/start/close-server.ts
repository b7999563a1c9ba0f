import type { Server } from "node:http";
import type { ServerParts } from "./server-parts.types";

/** Releases what was built for a server that never listened, at once (no grace for stages). */
export async function releaseServerParts({ core, systems, handler }: ServerParts): Promise<void> {
  handler.close();
  core.gateway.close();
  await systems.batches.close();
  await systems.backends.close();
  await systems.workers.close();
  await core.composed.engine.stop({ graceMs: 0 });
  await Promise.all([core.sandboxRuntime.closeAll(), core.inference.close(), core.agentHandlers.close()]);
  await systems.sandboxEvents.close();
  await core.composed.close();
}

/**
 * The running server's `close`: stops accepting requests, ends open streams, stops the engine
 * (running stages get `graceMs`, default `shutdownGraceMs`), closes the store. Idempotent.
 */
export function createServerClose(
  server: Server,
  { core, systems, handler }: ServerParts,
  { url, shutdownGraceMs }: { url: string; shutdownGraceMs: number | undefined },
): (options?: { graceMs?: number }) => Promise<void> {
  let closing: Promise<void> | null = null;
  return (options = {}) => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      handler.close();
      core.gateway.close();
      // Before the engine: no step acts on job events while the engine winds down.
      await systems.batches.close();
      await core.composed.engine.stop({ graceMs: options.graceMs ?? shutdownGraceMs });
      await systems.backends.close();
      await systems.workers.close();
      // Long-polls and SSE streams would hold the server open; the engine is stopped, so end them.
      server.closeAllConnections();
      await closed;
      await core.sandboxRuntime.closeAll();
      // Every sandbox is closed: its last events are buffered, write them before the store closes.
      await systems.sandboxEvents.close();
      // After the engine stopped: no stage can still be cutting a bundle from the scratch directory.
      await core.agentHandlers.close();
      await core.inference.close();
      await core.composed.close();
      core.logger.info({ url }, "server stopped");
    })();
    return closing;
  };
}
