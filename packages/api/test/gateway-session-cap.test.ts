// One gateway session cannot hold more than its cap of the server's connections: past 16 open
// chat requests (half-sent ones included: the slot is taken before the body is read) a request
// is answered 429 at once and its connection closed, counted, and other sessions are unaffected.
import { createServer, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import type { TChatCompletion } from "@raas/shared";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ControlPlaneGateway } from "../src/gateway.port";
import { createGatewayHandler, type GatewayHandler } from "../src/http/gateway-handler";
import { registerGatewayRefusalMetrics } from "../src/metrics/gateway-refusal-metrics";

const COMPLETION = {
  id: "c1",
  object: "chat.completion",
  created: 0,
  model: "m",
  choices: [
    { index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop", logprobs: null },
  ],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
} as unknown as TChatCompletion;

const GATEWAY: ControlPlaneGateway = {
  listModels: () => ({ object: "list", data: [] }),
  complete: async () => COMPLETION,
  createMessage: async () => ({}),
  countMessageTokens: async () => ({ input_tokens: 1 }),
  createResponse: async () => ({}),
  authorize: () => ({}),
  buildTraces: async () => {
    throw new Error("not used");
  },
  listCalls: async () => [],
};

function halfSentPost(token: string): string {
  return `POST /gateway/${token}/v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{`;
}

/** Everything the server sends until it closes the connection. */
function readUntilClosed(socket: Socket): Promise<string> {
  let text = "";
  socket.on("data", (chunk) => {
    text += chunk;
  });
  socket.on("error", () => {});
  return new Promise((resolve) => socket.once("close", () => resolve(text)));
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("gateway: per-session cap on open requests", () => {
  let server: Server;
  let handler: GatewayHandler;
  let port: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    handler = createGatewayHandler({ gateway: GATEWAY });
    server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("answers 429 and closes past 16 half-sent requests of one session; another session still completes", async () => {
    const answers = new Map<number, string>();
    for (let index = 0; index < 20; index += 1) {
      const socket = connect(port, "127.0.0.1");
      sockets.push(socket);
      void readUntilClosed(socket).then((text) => answers.set(index, text));
      socket.write(halfSentPost("gw_flood"));
    }
    await waitFor(() => handler.sessions.refused === 4 && answers.size === 4);
    expect(handler.sessions.openRequests("gw_flood")).toBe(16);
    // Four were answered and closed without waiting for their bodies; sixteen wait for theirs.
    for (const answer of answers.values()) {
      expect(answer).toMatch(/^HTTP\/1\.1 429/);
      expect(answer.toLowerCase()).toContain("connection: close");
      expect(answer.toLowerCase()).toContain("retry-after: 1");
      expect(answer).toContain("already has 16 requests open");
    }
    const other = await fetch(`http://127.0.0.1:${port}/gateway/gw_other/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    });
    expect(other.status).toBe(200);
    expect(await other.json()).toMatchObject({ choices: [{ message: { content: "ok" } }] });
    // A slot of the flooded session frees when one of its requests ends.
    sockets.find((_socket, index) => !answers.has(index))!.destroy();
    await waitFor(() => handler.sessions.openRequests("gw_flood") === 15);
    const freed = await fetch(`http://127.0.0.1:${port}/gateway/gw_flood/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    });
    expect(freed.status).toBe(200);
  });

  it("exports the refusals as raas_gateway_refusals_total by reason", async () => {
    const registry = new Registry();
    registerGatewayRefusalMetrics(registry, () => ({
      sessionInflight: handler.sessions.refused,
      bridgeConnections: 7,
      bridgeRequestTimeouts: 2,
    }));
    const text = await registry.metrics();
    expect(text).toContain('raas_gateway_refusals_total{reason="session_inflight"} 4');
    expect(text).toContain('raas_gateway_refusals_total{reason="bridge_connections"} 7');
    expect(text).toContain('raas_gateway_refusals_total{reason="bridge_request_timeout"} 2');
  });
});
