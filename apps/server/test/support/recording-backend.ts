// A recording fake backend: an HTTP server in front of a backend (the simulator) that keeps the
// JSON body of every generation request it forwards — what the backend actually received — and
// streams the answers back unchanged.
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordingBackend {
  url: string;
  /** Generation requests (`POST /v1/completions`, `/generate`) as received, in arrival order. */
  readonly requests: Record<string, unknown>[];
  close(): Promise<void>;
}

const GENERATION_PATHS = new Set(["/v1/completions", "/generate"]);

export async function startRecordingBackend(targetUrl: string): Promise<RecordingBackend> {
  const target = new URL(targetUrl);
  const requests: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.method === "POST" && GENERATION_PATHS.has(req.url ?? "")) {
        requests.push(JSON.parse(body.toString("utf8")) as Record<string, unknown>);
      }
      const upstream = httpRequest(
        {
          agent: false,
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host, "content-length": String(body.length) },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => res.destroy());
      // The server went away mid-answer (an aborted generation): so does the upstream request.
      res.on("close", () => {
        if (!res.writableFinished) upstream.destroy();
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
