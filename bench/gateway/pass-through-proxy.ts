// A pass-through HTTP proxy that does nothing but forward (keep-alive both ways): the floor of what
// any extra hop between a harness and its backend costs on this machine, for comparison with the
// gateway (which renders, tokenizes, routes, parses and records besides).
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface PassThroughProxy {
  url: string;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 that forwards every request to `targetUrl` (same path). */
export async function startPassThroughProxy(targetUrl: string): Promise<PassThroughProxy> {
  const target = new URL(targetUrl);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
