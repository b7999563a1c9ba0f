import { request } from "node:http";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";
import { type RunningServer, startServer } from "../src/server";

/** GET with an explicit `Host` header (fetch cannot set one). */
function getWithHost(baseUrl: string, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, baseUrl), { agent: false, headers: { host } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once("error", reject);
    req.end();
  });
}

describe("the server answers only for its configured host names", () => {
  let running: RunningServer;

  beforeAll(async () => {
    const env = parseServerEnv({ RAAS_STORE: "memory", RAAS_ALLOWED_HOSTS: "raas.example.org" });
    running = await startServer({ ...configFromEnv(env), port: 0, logLevel: "silent", agentHandlers: false });
  });
  afterAll(() => running.close({ graceMs: 0 }));

  it("refuses a rebinding host name with 403 on every route, SSE included", async () => {
    for (const path of ["/health", "/api/v1/jobs", "/trpc/jobs.events", "/openapi.json"]) {
      const refused = await getWithHost(running.url, path, `attacker.example:${running.port}`);
      expect(refused.status, path).toBe(403);
      expect(refused.body).toContain('does not answer for host \\"attacker.example\\"');
      expect(refused.body).toContain("RAAS_ALLOWED_HOSTS");
    }
  });

  it("serves loopback names, IP addresses and the configured names", async () => {
    for (const host of [
      `127.0.0.1:${running.port}`,
      "localhost",
      "[::1]:80",
      "10.0.0.7",
      "raas.example.org:443",
    ]) {
      expect((await getWithHost(running.url, "/health", host)).status, host).toBe(200);
    }
    // Bound to loopback only: the machine's own name is not one clients use.
    expect((await getWithHost(running.url, "/health", `${hostname()}x`)).status).toBe(403);
  });

  it("adds the machine's host name when bound to every interface; '*' accepts any host", async () => {
    const everywhere = await startServer({
      port: 0,
      host: "0.0.0.0",
      logLevel: "silent",
      agentHandlers: false,
    });
    const open = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      allowedHosts: ["*"],
    });
    try {
      const local = `http://127.0.0.1:${everywhere.port}`;
      expect((await getWithHost(local, "/health", `${hostname()}:${everywhere.port}`)).status).toBe(200);
      expect((await getWithHost(local, "/health", "attacker.example")).status).toBe(403);
      expect((await getWithHost(open.url, "/health", "attacker.example")).status).toBe(200);
    } finally {
      await Promise.all([everywhere.close({ graceMs: 0 }), open.close({ graceMs: 0 })]);
    }
  });

  it("stops at start on a malformed RAAS_ALLOWED_HOSTS entry", () => {
    expect(() => parseServerEnv({ RAAS_ALLOWED_HOSTS: "http://raas.example.org:8080" })).toThrow(
      /RAAS_ALLOWED_HOSTS: "http:\/\/raas.example.org:8080": expected a host name without port or scheme/,
    );
  });
});
