import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forwardToServer } from "../src/server/forward-to-server";

const MAX = 64 * 1024;

/** Stands in for the control plane: answers with how many body bytes it received. */
async function startCountingServer(): Promise<{ url: string; server: Server; requests: number[] }> {
  const requests: number[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let bytes = 0;
    req.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
    });
    req.on("end", () => {
      requests.push(bytes);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ result: { data: { bytes } } }));
    });
    req.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests };
}

/** A body stream of `chunks` chunks of `size` bytes; with `hang`, it never ends after them. */
function bodyStream(
  chunks: number,
  size: number,
  hang = false,
): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= chunks) {
          if (!hang) controller.close();
          return new Promise<void>(() => {}); // with hang: the rest never arrives
        }
        pulled += 1;
        controller.enqueue(new Uint8Array(size).fill(97));
        return undefined;
      },
    },
    { highWaterMark: 0 },
  ); // pulled only when someone reads
  return { stream, pulled: () => pulled };
}

const post = (body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request("http://127.0.0.1:3000/api/trpc/jobs.submit", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
    duplex: "half",
  } as RequestInit);

describe("the dashboard's proxy: request bodies capped at the server's limit", () => {
  let upstream: Awaited<ReturnType<typeof startCountingServer>>;
  const options = () => ({ serverUrl: upstream.url, headersTimeoutMs: 10_000, maxBodyBytes: MAX });

  beforeAll(async () => {
    upstream = await startCountingServer();
  });
  afterAll(() => {
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

  it("answers 413 to a declared length over the limit without reading the body or calling the server", async () => {
    const body = bodyStream(1, 1024, true); // 100 MB declared, 1 KiB sent, the rest never comes
    const before = upstream.requests.length;
    const response = await forwardToServer(
      post(body.stream, { "content-length": String(100 * 1024 * 1024) }),
      "jobs.submit",
      options(),
    );
    expect(response.status).toBe(413);
    const json = (await response.json()) as { error: { message: string; data: { code: string } } };
    expect(json.error.data.code).toBe("PAYLOAD_TOO_LARGE");
    expect(json.error.message).toBe(`the request body is larger than the limit of ${MAX} bytes`);
    expect(body.pulled()).toBe(0);
    expect(upstream.requests.length).toBe(before);
  });

  it("answers 413 to an undeclared (chunked) body as soon as it passes the limit, and stops reading it", async () => {
    const body = bodyStream(4, MAX / 2, true); // 2 × limit, then it would hang forever
    const response = await forwardToServer(post(body.stream), "jobs.submit", options());
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(4);
    expect(upstream.requests).not.toContain(2 * MAX);
  });

  it("streams a body within the limit through to the server unchanged", async () => {
    const body = bodyStream(4, MAX / 4);
    const response = await forwardToServer(post(body.stream), "jobs.submit", options());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ result: { data: { bytes: MAX } } });
  });
});
