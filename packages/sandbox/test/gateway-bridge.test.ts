// A harness reaches the job's gateway through the loopback forwarder (a real node process, as it
// runs inside a sandbox) and the host's Unix-socket bridge: it gets OPENAI_BASE_URL and
// OPENAI_API_KEY, its allowed calls arrive under the job's gateway prefix (streams included), and
// any other path is refused before it reaches the host's server.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type HttpSocketBridge,
  isGatewayRequest,
  startHttpSocketBridge,
} from "../src/host/http-socket-bridge";
import { parseForwarderArgs } from "../src/server/loopback-forwarder";
import { createTestRuntime } from "./support/sandbox-fixture";

const FORWARDER = fileURLToPath(new URL("../src/server/loopback-forwarder.ts", import.meta.url));

/** A POST whose headers promise 100 kB of body, of which one byte comes. */
const HALF_SENT_POST =
  "POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{";

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Everything the peer sends until it closes the connection. */
function readUntilClosed(socket: Socket): Promise<string> {
  let text = "";
  socket.on("data", (chunk) => {
    text += chunk;
  });
  socket.on("error", () => {});
  return new Promise((resolve) => socket.once("close", () => resolve(text)));
}

/** One GET over a Unix socket, its answer's raw text. */
function requestOverSocket(socketPath: string, path: string): Promise<string> {
  const socket = connect(socketPath);
  socket.write(`GET ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
  return readUntilClosed(socket);
}

// The harness: calls models, a chat completion (streamed back in two chunks) and a path outside.
const HARNESS = `
const base = process.env.OPENAI_BASE_URL;
const out = { base, key: process.env.OPENAI_API_KEY };
out.models = await fetch(base + "/models").then((r) => r.json());
const chat = await fetch(base + "/chat/completions", {
  method: "POST",
  headers: { "content-type": "application/json", "user-agent": "test-harness/1.0", "x-forwarded-host": "elsewhere" },
  body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], stream: true }),
});
out.chat = { status: chat.status, text: await chat.text() };
const outside = await fetch(base.replace(/\\/v1$/, "") + "/api/v1/jobs");
out.outside = { status: outside.status, body: await outside.json() };
// Another session's token, in the path or as the key: the bridge's target stays this session's.
const root = base.replace(/\\/v1$/, "");
out.otherPath = (await fetch(root + "/gateway/gw_other/v1/models")).status;
out.otherKey = await fetch(base + "/models", { headers: { authorization: "Bearer gw_other" } }).then((r) => r.json());
console.log(JSON.stringify(out));
`;

describe("loopback forwarder + host socket bridge", () => {
  let target: Server;
  let bridge: HttpSocketBridge;
  let dir: string;
  const seen: string[] = [];
  /** The headers of the chat requests the target saw, besides the usual ones. */
  const chatHeaders: Record<string, string | string[] | undefined>[] = [];
  /** Requests the target saw end before their body did. */
  const aborted: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "raas-gateway-bridge-"));
    target = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.url?.endsWith("/v1/models")) {
        res.writeHead(200, { "content-type": "application/json" }).end('{"object":"list","data":[]}');
        return;
      }
      const { "user-agent": userAgent, "x-forwarded-host": forwardedHost } = req.headers;
      chatHeaders.push({ userAgent, forwardedHost });
      req.once("close", () => {
        if (!req.complete) aborted.push(req.url ?? "");
      });
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(`data: ${JSON.stringify({ got: JSON.parse(body).messages[0].content })}\n\n`);
        setTimeout(() => res.end("data: [DONE]\n\n"), 20);
      });
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    const { port } = target.address() as AddressInfo;
    bridge = await startHttpSocketBridge({
      socketPath: join(dir, "gateway.sock"),
      targetUrl: `http://127.0.0.1:${port}/gateway/gw_session`,
      allow: isGatewayRequest,
    });
  });

  afterAll(async () => {
    await bridge?.close();
    await new Promise<void>((resolve) => target?.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it("gives the harness its gateway and nothing else", async () => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        FORWARDER,
        "--socket",
        join(dir, "gateway.sock"),
        "--api-key",
        "gw_session",
        "--",
        process.execPath,
        "--input-type=module",
        "-e",
        HARNESS,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const out = JSON.parse(stdout.trim());
    expect(out.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(out.key).toBe("gw_session");
    expect(out.models).toEqual({ object: "list", data: [] });
    expect(out.chat).toEqual({ status: 200, text: 'data: {"got":"hi"}\n\ndata: [DONE]\n\n' });
    expect(out.outside.status).toBe(404);
    expect(out.otherPath).toBe(404);
    expect(out.otherKey).toEqual({ object: "list", data: [] });
    expect(seen).toEqual([
      "GET /gateway/gw_session/v1/models",
      "POST /gateway/gw_session/v1/chat/completions",
      "GET /gateway/gw_session/v1/models",
    ]);
    expect(bridge.forwarded).toBe(3);
    // The harness's name reaches the gateway (its records show the client); nothing else of its headers does.
    expect(chatHeaders.at(-1)).toEqual({ userAgent: "test-harness/1.0", forwardedHost: undefined });
  }, 60_000);

  it("reaches the gateway from a bubblewrap sandbox with no network, through the bundled forwarder", async () => {
    const { runtime, dispose } = createTestRuntime();
    try {
      const sandbox = await runtime.create({ jobId: "job-bridge" });
      const channel = sandbox.hostChannel!();
      const { port } = target.address() as AddressInfo;
      const inner = await startHttpSocketBridge({
        socketPath: join(channel.hostDir, "gateway.sock"),
        targetUrl: `http://127.0.0.1:${port}/gateway/gw_sandboxed`,
        allow: isGatewayRequest,
      });
      try {
        const script = [
          "import json, os, urllib.request",
          "base = os.environ['OPENAI_BASE_URL']",
          "models = json.load(urllib.request.urlopen(base + '/models'))",
          "try:",
          "    urllib.request.urlopen('http://example.com/', timeout=5)",
          "    net = 'reachable'",
          "except Exception as error:",
          "    net = 'unreachable'",
          "print(json.dumps({'models': models, 'net': net, 'key': os.environ['OPENAI_API_KEY']}))",
        ].join("\n");
        const result = await sandbox.exec(
          [
            "node",
            channel.forwarderPath,
            "--socket",
            `${channel.sandboxDir}/gateway.sock`,
            "--api-key",
            "k1",
            "--",
            "python3",
            "-c",
            script,
          ],
          { timeoutMs: 60_000 },
        );
        expect(result.stderr).toBe("");
        expect(result.exitCode).toBe(0);
        expect(JSON.parse(result.stdout.trim())).toEqual({
          models: { object: "list", data: [] },
          net: "unreachable",
          key: "k1",
        });
        expect(seen).toContain("GET /gateway/gw_sandboxed/v1/models");
      } finally {
        await inner.close();
      }
    } finally {
      await dispose();
    }
  }, 120_000);

  it("closes connections past its cap at once and counts them; the ones under it still work", async () => {
    const capped = await startHttpSocketBridge({
      socketPath: join(dir, "capped.sock"),
      targetUrl: `http://127.0.0.1:${(target.address() as AddressInfo).port}/gateway/gw_capped`,
      allow: isGatewayRequest,
      maxConnections: 4,
    });
    const sockets: Socket[] = [];
    try {
      // Ten half-sent POSTs: the headers promise a body that never comes.
      const closed = new Set<number>();
      for (let index = 0; index < 10; index += 1) {
        const socket = connect(join(dir, "capped.sock"));
        socket.on("error", () => {});
        socket.on("close", () => closed.add(index));
        socket.write(HALF_SENT_POST);
        sockets.push(socket);
        await once(socket, "connect");
      }
      await waitFor(() => capped.refused.connections === 6 && closed.size === 6);
      expect(capped.openConnections).toBe(4);
      // Freeing a slot lets the next request through.
      sockets[[...Array(10).keys()].find((index) => !closed.has(index))!]!.destroy();
      await waitFor(() => capped.openConnections === 3);
      const answer = await requestOverSocket(join(dir, "capped.sock"), "/v1/models");
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await capped.close();
    }
  });

  it("answers 408 to a request sent too slowly, closes it and aborts what it forwarded", async () => {
    const slow = await startHttpSocketBridge({
      socketPath: join(dir, "slow.sock"),
      targetUrl: `http://127.0.0.1:${(target.address() as AddressInfo).port}/gateway/gw_slow`,
      allow: isGatewayRequest,
      headersTimeoutMs: 200,
      requestTimeoutMs: 400,
    });
    try {
      const half = connect(join(dir, "slow.sock"));
      half.write(HALF_SENT_POST);
      const noHeaders = connect(join(dir, "slow.sock"));
      noHeaders.write("POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\n");
      const [halfAnswer, noHeadersAnswer] = await Promise.all([
        readUntilClosed(half),
        readUntilClosed(noHeaders),
      ]);
      expect(halfAnswer).toMatch(/^HTTP\/1\.1 408/);
      expect(noHeadersAnswer).toMatch(/^HTTP\/1\.1 408/);
      expect(slow.refused.timeout).toBe(2);
      await waitFor(() => slow.openConnections === 0);
      // The half-sent request had been forwarded: the target saw it end unfinished.
      await waitFor(() => aborted.includes("/gateway/gw_slow/v1/chat/completions"));
    } finally {
      await slow.close();
    }
  });

  it("lets through the gateway's faces and Claude Code's reachability check, nothing else", () => {
    for (const path of [
      "/v1/chat/completions",
      "/v1/responses",
      "/v1/messages",
      "/v1/messages/count_tokens",
    ]) {
      expect(isGatewayRequest("POST", path)).toBe(true);
    }
    expect(isGatewayRequest("GET", "/v1/models")).toBe(true);
    expect(isGatewayRequest("HEAD", "/")).toBe(true);
    expect(isGatewayRequest("GET", "/v1/responses")).toBe(false);
    expect(isGatewayRequest("POST", "/v1/embeddings")).toBe(false);
    expect(isGatewayRequest("HEAD", "/v1/models/../../admin")).toBe(false);
  });

  it("explains a missing socket or command", () => {
    expect(() => parseForwarderArgs(["--", "python3"])).toThrow(/--socket/);
    expect(() => parseForwarderArgs(["--socket", "/run/raas/gateway.sock"])).toThrow(/after --/);
    expect(parseForwarderArgs(["--socket", "/s", "--", "python3", "agent.py"])).toEqual({
      socketPath: "/s",
      apiKey: "raas-gateway",
      maxConnections: 32,
      port: 0,
      command: ["python3", "agent.py"],
    });
    expect(parseForwarderArgs(["--socket", "/s", "--port", "41434", "--", "a"]).port).toBe(41_434);
    expect(() => parseForwarderArgs(["--socket", "/s", "--port", "x", "--", "a"])).toThrow(/port number/);
    expect(parseForwarderArgs(["--socket", "/s", "--max-connections", "4", "--", "a"]).maxConnections).toBe(
      4,
    );
    expect(() => parseForwarderArgs(["--socket", "/s", "--max-connections", "0", "--", "a"])).toThrow(
      /positive integer/,
    );
  });
});
