// A harness reaches the job's gateway through the loopback forwarder (a real node process, as it
// runs inside a sandbox) and the host's Unix-socket bridge: it gets OPENAI_BASE_URL and
// OPENAI_API_KEY, its allowed calls arrive under the job's gateway prefix (streams included), and
// any other path is refused before it reaches the host's server.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
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

// The harness: calls models, a chat completion (streamed back in two chunks) and a path outside.
const HARNESS = `
const base = process.env.OPENAI_BASE_URL;
const out = { base, key: process.env.OPENAI_API_KEY };
out.models = await fetch(base + "/models").then((r) => r.json());
const chat = await fetch(base + "/chat/completions", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], stream: true }),
});
out.chat = { status: chat.status, text: await chat.text() };
const outside = await fetch(base.replace(/\\/v1$/, "") + "/api/v1/jobs");
out.outside = { status: outside.status, body: await outside.json() };
console.log(JSON.stringify(out));
`;

describe("loopback forwarder + host socket bridge", () => {
  let target: Server;
  let bridge: HttpSocketBridge;
  let dir: string;
  const seen: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "raas-gateway-bridge-"));
    target = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.url?.endsWith("/v1/models")) {
        res.writeHead(200, { "content-type": "application/json" }).end('{"object":"list","data":[]}');
        return;
      }
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
    expect(seen).toEqual([
      "GET /gateway/gw_session/v1/models",
      "POST /gateway/gw_session/v1/chat/completions",
    ]);
    expect(bridge.forwarded).toBe(2);
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

  it("explains a missing socket or command", () => {
    expect(() => parseForwarderArgs(["--", "python3"])).toThrow(/--socket/);
    expect(() => parseForwarderArgs(["--socket", "/run/raas/gateway.sock"])).toThrow(/after --/);
    expect(parseForwarderArgs(["--socket", "/s", "--", "python3", "agent.py"])).toEqual({
      socketPath: "/s",
      apiKey: "raas-gateway",
      command: ["python3", "agent.py"],
    });
  });
});
