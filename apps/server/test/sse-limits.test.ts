import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";
import { type RunningServer, startServer } from "../src/server";

const TOKENS = { admin: "sse-admin-token", trainer: "sse-trainer-token", viewer: "sse-viewer-token" };

interface OpenedStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The first chunk of the body: the `connected` event of an admitted stream, or the error. */
  firstChunk: string;
  close(): void;
}

/** Opens `/trpc/jobs.events` on its own TCP connection and waits for the first bytes. */
function openStream(baseUrl: string, token?: string, viaParams = false): Promise<OpenedStream> {
  const url = new URL("/trpc/jobs.events", baseUrl);
  if (token && viaParams) url.searchParams.set("connectionParams", JSON.stringify({ token }));
  const headers: Record<string, string> = { accept: "text/event-stream" };
  if (token && !viaParams) headers.authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers }, (res) => {
      res.setEncoding("utf8");
      res.once("data", (chunk: string) =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          firstChunk: chunk,
          close: () => req.destroy(),
        }),
      );
      res.once("error", () => {});
    });
    req.once("error", reject);
    req.end();
  });
}

describe("SSE subscriptions: capped globally and per token, slots released on disconnect", () => {
  let running: RunningServer;
  const open: OpenedStream[] = [];

  beforeAll(async () => {
    const env = parseServerEnv({
      RAAS_STORE: "memory",
      RAAS_ADMIN_TOKEN: TOKENS.admin,
      RAAS_TRAINER_TOKEN: TOKENS.trainer,
      RAAS_VIEWER_TOKEN: TOKENS.viewer,
      RAAS_MAX_SUBSCRIBERS: "5",
      RAAS_MAX_SUBSCRIBERS_PER_TOKEN: "2",
    });
    running = await startServer({ ...configFromEnv(env), port: 0, logLevel: "silent", agentHandlers: false });
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    await running.close({ graceMs: 0 });
  });

  const admit = async (token?: string, viaParams = false) => {
    const stream = await openStream(running.url, token, viaParams);
    open.push(stream);
    return stream;
  };

  it("answers 503 with retry-after past the per-token cap, and admits again once a client leaves", async () => {
    const first = await admit(TOKENS.viewer);
    const second = await admit(TOKENS.viewer, true); // the same token through connectionParams
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.firstChunk).toContain("event: connected");

    const third = await admit(TOKENS.viewer);
    expect(third.status).toBe(503);
    expect(third.headers["retry-after"]).toBe("5");
    expect(JSON.parse(third.firstChunk).error.message).toContain(
      "the viewer token already holds its limit of 2 live subscriptions",
    );

    first.close();
    // The slot comes back when the server sees the disconnect; poll for it (no timing asserted).
    let again = await admit(TOKENS.viewer);
    for (let attempt = 0; again.status === 503 && attempt < 100; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await admit(TOKENS.viewer);
    }
    expect(again.status).toBe(200);
  });

  it("answers 503 past the global cap, whichever token asks", async () => {
    // Held now: 2 viewer. Two trainer and one tokenless reader fill the global cap of 5.
    expect((await admit(TOKENS.trainer)).status).toBe(200);
    expect((await admit(TOKENS.trainer)).status).toBe(200);
    expect((await admit()).status).toBe(200);
    const refused = await admit(TOKENS.admin);
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("5");
    expect(JSON.parse(refused.firstChunk).error.message).toContain("its limit of 5 live subscriptions");
    // Ordinary reads are not subscriptions and still answer.
    const health = await fetch(`${running.url}/health`);
    expect(health.status).toBe(200);
    const metrics = await fetch(`${running.url}/metrics`).then((response) => response.text());
    expect(metrics).toMatch(/^raas_live_subscriptions 5$/m);
  });

  it("refuses a wrong token with 401 before it takes a slot", async () => {
    const wrong = await admit("not-a-token");
    expect(wrong.status).toBe(401);
  });
});
