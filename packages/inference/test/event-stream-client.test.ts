// `JsonHttpClient.postEventStream` against real servers on loopback: events, kept-alive
// connections, a connection the server closed while idle, abort, interrupt, the connection limit.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { failureOf } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { isInferenceFailure, JsonHttpClient } from "../src";
import { serveLoopback } from "./support/loopback-http";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An HTTP server on 127.0.0.1 counting its connections; closed after the test. */
const serve = (handle: (req: IncomingMessage, res: ServerResponse) => void) => serveLoopback(handle, closers);

function client(options: ConstructorParameters<typeof JsonHttpClient>[0] = {}) {
  const created = new JsonHttpClient(options);
  closers.push(() => created.close());
  return created;
}

/** Writes `events` as server-sent events, one write each, then `[DONE]`. */
function writeEvents(res: ServerResponse, events: readonly string[]) {
  res.writeHead(200, { "content-type": "text/event-stream" });
  for (const event of events) res.write(`data: ${event}\n\n`);
  res.end("data: [DONE]\n\n");
}

const call = { backendId: "b1" };

describe("JsonHttpClient.postEventStream", () => {
  it("hands over every event (multi-byte text split across writes) and reuses its connection", async () => {
    const backend = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      const event = Buffer.from('data: {"text":"é✓😀"}\n\n');
      // Split inside the emoji: the client must decode across pieces.
      res.write(event.subarray(0, 17));
      setTimeout(() => res.end(Buffer.concat([event.subarray(17), Buffer.from("data: [DONE]\n\n")])), 5);
    });
    const http = client();
    for (let i = 0; i < 3; i += 1) {
      const seen: string[] = [];
      const answer = await http.postEventStream(backend.url, { i }, call, (data) => seen.push(data));
      expect(answer).toEqual({ type: "stream", isInterrupted: false });
      expect(seen).toEqual(['{"text":"é✓😀"}']);
    }
    expect(backend.connections()).toBe(1);
  });

  it("reads an answer that is not a stream as JSON, and a failing status as an http-status failure", async () => {
    const backend = await serve((req, res) => {
      req.resume();
      const status = req.url?.includes("fail") ? 503 : 200;
      res.writeHead(status, { "content-type": "application/json" }).end('{"choices":[]}');
    });
    const http = client();
    expect(await http.postEventStream(backend.url, {}, call, () => {})).toEqual({
      type: "json",
      json: { choices: [] },
    });
    const failed = await http.postEventStream(`${backend.url}?fail`, {}, call, () => {}).catch((e) => e);
    expect(isInferenceFailure(failed)).toBe(true);
    expect(failureOf(failed)).toMatchObject({ inference: { reason: "http-status" } });
    expect(failed.message).toContain("503");
  });

  it("opens a new connection when the server closed the idle one", async () => {
    let closedByServer = 0;
    const backend = await serve((req, res) => {
      req.resume();
      req.socket.once("close", () => {
        closedByServer += 1;
      });
      writeEvents(res, ['"x"']);
    });
    backend.server.keepAliveTimeout = 30;
    const http = client();
    await http.postEventStream(backend.url, {}, call, () => {});
    await expect.poll(() => closedByServer, { timeout: 10_000 }).toBe(1);
    const seen: string[] = [];
    await http.postEventStream(backend.url, {}, call, (data) => seen.push(data));
    expect(seen).toEqual(['"x"']);
    expect(backend.connections()).toBe(2);
  });

  it("retries once on a new connection when a kept-alive one is dropped without an answer", async () => {
    // A raw server that answers the first request of each connection and drops the connection at
    // the second (as a server whose keep-alive timeout races the client's next request does).
    const answer =
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n" +
      'c\r\ndata: "ok"\n\n\r\n0\r\n\r\n';
    const sockets: Socket[] = [];
    const server: Server = createTcpServer((socket) => {
      sockets.push(socket);
      let requests = 0;
      socket.on("data", (bytes) => {
        if (!bytes.includes("\r\n\r\n")) return;
        requests += 1;
        if (requests === 1) socket.write(answer);
        else socket.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/completions`;
    const http = client();
    for (let i = 0; i < 3; i += 1) {
      const seen: string[] = [];
      await http.postEventStream(url, {}, call, (data) => seen.push(data));
      expect(seen).toEqual(['"ok"']);
    }
    expect(sockets).toHaveLength(3);
  });

  it("fails as a connection failure when a new connection is dropped without an answer (no retry)", async () => {
    let accepted = 0;
    const server = createTcpServer((socket) => {
      accepted += 1;
      socket.once("data", () => socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/completions`;
    const failed = await client()
      .postEventStream(url, {}, call, () => {})
      .catch((e) => e);
    expect(isInferenceFailure(failed)).toBe(true);
    expect(failureOf(failed)).toMatchObject({ inference: { reason: "connection" } });
    expect(accepted).toBe(1);
    const refused = await client()
      .postEventStream("http://127.0.0.1:1/v1/completions", {}, call, () => {})
      .catch((e) => e);
    expect(failureOf(refused)).toMatchObject({ inference: { reason: "connection" } });
  });

  it("aborts at once: the server sees the connection close, the call fails as aborted", async () => {
    let serverSawClose = false;
    const backend = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('data: "first"\n\n');
      res.on("close", () => {
        serverSawClose = true;
      });
    });
    const abort = new AbortController();
    const seen: string[] = [];
    const failed = await client()
      .postEventStream(backend.url, {}, { ...call, signal: abort.signal }, (data) => {
        seen.push(data);
        abort.abort(new Error("job cancelled"));
      })
      .catch((e) => e);
    expect(isInferenceFailure(failed)).toBe(true);
    expect(failureOf(failed)).toMatchObject({ inference: { reason: "aborted" } });
    expect(seen).toEqual(['"first"']);
    await expect.poll(() => serverSawClose).toBe(true);
  });

  it("fails as deadline when the answer does not end in time", async () => {
    const backend = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
    });
    const failed = await client()
      .postEventStream(backend.url, {}, { ...call, deadlineMs: Date.now() + 100 }, () => {})
      .catch((e) => e);
    expect(failureOf(failed)).toMatchObject({ inference: { reason: "deadline" } });
  });

  it("an interrupt half-closes: events the server sends until it notices still arrive", async () => {
    // A raw server that, told by the client's end of the connection that it left, sends one more
    // event and ends its answer (as a server that stops a generation on disconnect does).
    const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
    const server = createTcpServer({ allowHalfOpen: true }, (socket) => {
      socket.once("data", () =>
        socket.write(
          `HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n${chunk('data: "one"\n\n')}`,
        ),
      );
      socket.once("end", () => socket.end(`${chunk('data: "after the interrupt"\n\n')}0\r\n\r\n`));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/completions`;
    const interrupt = new AbortController();
    const seen: string[] = [];
    const answer = await client().postEventStream(
      url,
      {},
      { ...call, interrupt: interrupt.signal },
      (data) => {
        seen.push(data);
        if (data === '"one"') interrupt.abort();
      },
    );
    expect(answer).toEqual({ type: "stream", isInterrupted: true });
    expect(seen).toEqual(['"one"', '"after the interrupt"']);
  });

  it("cuts off a server that goes on after an interrupt once the grace has passed", async () => {
    let cutOff: Promise<void> | undefined;
    const backend = await serve((req, res) => {
      req.resume();
      cutOff = new Promise((resolve) => res.on("close", () => resolve()));
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('data: "one"\n\n');
    });
    const interrupt = new AbortController();
    const answer = await client({ interruptGraceMs: 100 }).postEventStream(
      backend.url,
      {},
      { ...call, interrupt: interrupt.signal },
      () => interrupt.abort(),
    );
    expect(answer).toEqual({ type: "stream", isInterrupted: true });
    // The server never ends its stream: the client closed it.
    await cutOff;
    expect(backend.connections()).toBe(1);
  });

  it("queues requests beyond the connection limit and serves them all on that many connections", async () => {
    const backend = await serve((req, res) => {
      req.resume();
      setTimeout(() => writeEvents(res, ['"x"']), 20);
    });
    const http = client({ connectionsPerOrigin: 2 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => {
        const seen: string[] = [];
        return http.postEventStream(backend.url, {}, call, (data) => seen.push(data)).then(() => seen);
      }),
    );
    expect(answers).toEqual(Array.from({ length: 6 }, () => ['"x"']));
    expect(backend.connections()).toBe(2);
  });

  it("ends a queued request that is interrupted or aborted before a connection frees up", async () => {
    const backend = await serve((req, res) => {
      req.resume();
      setTimeout(() => writeEvents(res, ['"x"']), 200);
    });
    const http = client({ connectionsPerOrigin: 1 });
    const first = http.postEventStream(backend.url, {}, call, () => {});
    const interrupt = new AbortController();
    const abort = new AbortController();
    const interrupted = http.postEventStream(
      backend.url,
      {},
      { ...call, interrupt: interrupt.signal },
      () => {},
    );
    const aborted = http
      .postEventStream(backend.url, {}, { ...call, signal: abort.signal }, () => {})
      .catch((e) => e);
    interrupt.abort();
    abort.abort(new Error("cancelled"));
    expect(await interrupted).toEqual({ type: "stream", isInterrupted: true });
    expect(failureOf(await aborted)).toMatchObject({ inference: { reason: "aborted" } });
    expect(await first).toEqual({ type: "stream", isInterrupted: false });
    expect(backend.connections()).toBe(1);
  });

  it("fails a request waiting for a connection when the client closes", async () => {
    const backend = await serve((req, res) => {
      req.resume();
      setTimeout(() => writeEvents(res, ['"x"']), 100);
    });
    const http = new JsonHttpClient({ connectionsPerOrigin: 1 });
    const first = http.postEventStream(backend.url, {}, call, () => {});
    const waiting = http.postEventStream(backend.url, {}, call, () => {}).catch((e) => e);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await http.close();
    expect(failureOf(await waiting)).toMatchObject({ inference: { reason: "connection" } });
    expect(await first).toEqual({ type: "stream", isInterrupted: false });
  });

  it("speaks TLS to an https backend: a certificate it cannot verify is refused, never read as plain HTTP", async () => {
    const dir = mkdtempSync(join(tmpdir(), "raas-tls-"));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    try {
      execFileSync(
        "openssl",
        [
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-days",
          "1",
          "-subj",
          "/CN=localhost",
          "-keyout",
          join(dir, "key.pem"),
          "-out",
          join(dir, "cert.pem"),
        ],
        { stdio: "ignore" },
      );
    } catch {
      throw new Error("this test needs the openssl command: apt-get install -y openssl");
    }
    let handshakes = 0;
    const server = createHttpsServer(
      { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) },
      (req, res) => {
        req.resume();
        writeEvents(res, ['"x"']);
      },
    );
    server.on("tlsClientError", () => {
      handshakes += 1;
    });
    // Every local address: `localhost` may resolve to ::1 or 127.0.0.1.
    await new Promise<void>((resolve) => server.listen(0, resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    const failed = await client()
      .postEventStream(`https://localhost:${port}/v1/completions`, {}, call, () => {})
      .catch((e) => e);
    expect(isInferenceFailure(failed)).toBe(true);
    expect(failed.message).toMatch(/self[- ]signed certificate/);
    // The server saw a TLS handshake that the client broke off (not plain-text HTTP).
    await expect.poll(() => handshakes).toBe(1);
  });
});
