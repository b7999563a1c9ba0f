import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * An HTTP server on 127.0.0.1 that counts its connections; `closers` gets its close (the test
 * runs them after each test). `url` is its `/v1/completions`, `origin` its base URL.
 */
export async function serveLoopback(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  closers: (() => Promise<void>)[],
) {
  const server = createServer(handle);
  let connections = 0;
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return { server, origin, url: `${origin}/v1/completions`, connections: () => connections };
}
