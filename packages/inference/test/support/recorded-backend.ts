import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** One recorded answer: status, content type and body (an object is sent as JSON). */
export interface RecordedAnswer {
  status?: number;
  body: unknown;
}

export interface RecordedBackend {
  url: string;
  /** Bodies of the POST requests received, parsed, in order. */
  requests: unknown[];
  /** Replaces the answer of `METHOD /path` (e.g. `POST /generate`). */
  answer(route: string, answer: RecordedAnswer): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A real HTTP server on a free local port that answers each route with a recorded body — the
 * wire as a real inference server's release answered, without the GPU.
 */
export async function startRecordedBackend(
  answers: Record<string, RecordedAnswer>,
): Promise<RecordedBackend> {
  const routes = new Map(Object.entries(answers));
  const requests: unknown[] = [];
  const server = createServer((req, res) => {
    readBody(req).then(
      (text) => {
        if (req.method === "POST") requests.push(JSON.parse(text));
        const answer = routes.get(`${req.method} ${(req.url ?? "/").split("?")[0]}`);
        if (!answer) {
          res.writeHead(404).end();
          return;
        }
        const isText = typeof answer.body === "string";
        const payload = isText ? (answer.body as string) : JSON.stringify(answer.body);
        res
          .writeHead(answer.status ?? 200, {
            "content-type": isText ? "text/plain; version=0.0.4" : "application/json",
          })
          .end(payload);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer: (route, answer) => routes.set(route, answer),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
