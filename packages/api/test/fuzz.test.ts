import { Agent, request } from "node:http";
import { connect } from "node:net";
import { MemorySandboxEventStore } from "@raas/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiLogger } from "../src/index";
import { createRandom, type FuzzRequest, randomRequest } from "./helpers/fuzz-cases";
import { http, sleepJob, startTestServer, type TestServer, TOKENS } from "./helpers/test-server";

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);
const HTTP_CASES = 1_200;
const RAW_CASES = 120;
const CONCURRENCY = 16;
const MAX_BODY = 32 * 1024;

interface Outcome {
  request: string;
  status: number | "timeout" | "client-error";
  body: string;
}

function send(base: URL, agent: Agent, fuzz: FuzzRequest): Promise<Outcome> {
  const label = `${fuzz.method} ${fuzz.path.slice(0, 120)} ${JSON.stringify(fuzz.headers)} body=${fuzz.body?.subarray(0, 80).toString("latin1")}`;
  return new Promise((resolve) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method: fuzz.method,
        path: fuzz.path,
        headers: fuzz.headers,
        agent,
        timeout: 10_000,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (String(res.headers["content-type"]).includes("text/event-stream")) {
          res.destroy();
          resolve({ request: label, status, body: "(event stream)" });
          return;
        }
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          if (body.length < 4_000) body += chunk;
        });
        res.on("end", () => resolve({ request: label, status, body }));
        res.on("error", () => resolve({ request: label, status, body }));
      },
    );
    req.on("timeout", () => {
      req.destroy();
      resolve({ request: label, status: "timeout", body: "" });
    });
    req.on("error", (error) => resolve({ request: label, status: "client-error", body: error.message }));
    req.end(fuzz.body ?? undefined);
  });
}

/** Raw bytes on a socket, for what an HTTP client library would refuse to send. */
function sendRaw(port: number, bytes: string | Buffer, endAfterWrite: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      resolve({
        request: `raw ${bytes.toString().slice(0, 80)}`,
        status: status ? Number(status) : 0,
        body: received.slice(0, 400),
      });
    };
    const timer = setTimeout(finish, 1_500);
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      // Status line and headers are all we judge; do not wait for keep-alive to time out.
      if (received.includes("\r\n\r\n")) {
        clearTimeout(timer);
        finish();
      }
    });
    socket.on("close", () => {
      clearTimeout(timer);
      finish();
    });
    socket.on("error", () => {});
    socket.write(bytes, () => {
      if (endAfterWrite) socket.end();
    });
  });
}

function rawCases(random: ReturnType<typeof createRandom>): Array<{ bytes: string | Buffer; end: boolean }> {
  const templates: Array<() => { bytes: string | Buffer; end: boolean }> = [
    () => ({ bytes: "GARBAGE\r\n\r\n", end: false }),
    () => ({ bytes: "GET / HTTP/1.1\r\nHost: x\r\n\r\n", end: false }),
    () => ({
      bytes:
        'POST /api/v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"kind"',
      end: true,
    }),
    () => ({
      bytes: `POST /trpc/jobs.submit HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKENS.trainer}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"kind":`,
      end: true,
    }),
    () => ({
      bytes: "POST /api/v1/jobs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      end: false,
    }),
    () => ({ bytes: "POST /api/v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", end: false }),
    () => ({ bytes: "POST /api/v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", end: false }),
    () => ({
      bytes:
        "POST /api/v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}",
      end: false,
    }),
    () => ({ bytes: `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, end: false }),
    () => ({ bytes: `GET /${"%".repeat(random.int(50))} HTTP/1.1\r\nHost: x\r\n\r\n`, end: false }),
    () => ({ bytes: "GET /trpc/jobs.get?input=%7B%22id HTTP/1.1\r\nHost: x\r\n\r\n", end: false }),
    () => ({
      bytes: Buffer.concat([
        Buffer.from(
          `POST /api/v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKENS.trainer}\r\nContent-Type: application/json\r\nContent-Length: 14\r\n\r\n`,
        ),
        Buffer.from([0x7b, 0x22, 0x6b, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0x22, 0x7d]),
      ]),
      end: false,
    }),
    () => ({ bytes: "GET /health HTTP/9.9\r\nHost: x\r\n\r\n", end: false }),
    () => ({ bytes: "\u0000\u0001\u0002 / HTTP/1.1\r\n\r\n", end: false }),
  ];
  return Array.from({ length: RAW_CASES }, () => random.pick(templates)());
}

describe("fuzz: malformed requests never produce a 5xx", () => {
  let server: TestServer;
  const unexpected: unknown[] = [];
  const logger: ApiLogger = {
    debug() {},
    info() {},
    warn() {},
    error: (fields, message) => unexpected.push({ message, ...fields }),
  };

  beforeAll(async () => {
    const sandboxes = { name: "bubblewrap", events: new MemorySandboxEventStore() };
    server = await startTestServer({ maxBodyBytes: MAX_BODY, logger, sandboxes });
  });
  afterAll(() => server.close());

  it(`answers ${HTTP_CASES + RAW_CASES} generated requests (seed ${SEED}) with < 500 and keeps serving`, async () => {
    const random = createRandom(SEED);
    const base = new URL(server.url);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const cases = Array.from({ length: HTTP_CASES }, () => randomRequest(random, TOKENS, MAX_BODY));
    const outcomes: Outcome[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < cases.length) {
          const fuzz = cases[next++]!;
          outcomes.push(await send(base, agent, fuzz));
        }
      }),
    );
    agent.destroy();
    const raws = rawCases(random);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let raw = raws.pop(); raw; raw = raws.pop())
          outcomes.push(await sendRaw(Number(base.port), raw.bytes, raw.end));
      }),
    );
    const histogram: Record<string, number> = {};
    for (const outcome of outcomes) histogram[outcome.status] = (histogram[outcome.status] ?? 0) + 1;
    console.info(`fuzz seed ${SEED}: ${outcomes.length} requests, statuses ${JSON.stringify(histogram)}`);

    const serverErrors = outcomes.filter((o) => typeof o.status === "number" && o.status >= 500);
    const timeouts = outcomes.filter((o) => o.status === "timeout");
    expect(serverErrors.slice(0, 5)).toEqual([]);
    expect(timeouts.slice(0, 5)).toEqual([]);
    expect(unexpected.slice(0, 3)).toEqual([]);
    // Node's own HTTP parser closes a connection it cannot parse (e.g. OPTIONS with a chunked body);
    // a request queued on that socket then sees a hang-up. Rare, never from our handler.
    expect(outcomes.filter((o) => o.status === "client-error").length).toBeLessThan(outcomes.length / 100);

    // Every JSON error answer carries a readable message and never a stack trace.
    for (const outcome of outcomes) {
      if (typeof outcome.status !== "number" || outcome.status < 400 || !outcome.body.startsWith("{"))
        continue;
      const parsed = JSON.parse(outcome.body) as { error?: { message?: string } };
      expect(parsed.error?.message, outcome.request).toMatch(/\w{3,}/);
      expect(outcome.body, outcome.request).not.toMatch(/\n\s+at |\.ts:\d+/);
    }

    // The fuzzer reached the interesting error classes, not just one.
    const statuses = new Set(outcomes.map((o) => o.status));
    for (const status of [400, 401, 404, 405, 409, 413, 415])
      expect(statuses, `status ${status} seen`).toContain(status);
    expect(outcomes.length).toBeGreaterThanOrEqual(1_000);

    // Still serving: health, a real submit, and its completion.
    expect((await http(`${server.url}/health`)).status).toBe(200);
    const submitted = await http(`${server.url}/api/v1/jobs`, { body: sleepJob(), token: TOKENS.trainer });
    expect(submitted.status).toBe(201);
    const waited = await http(`${server.url}/api/v1/jobs/wait`, {
      body: { ids: [submitted.body.job.id], timeoutMs: 10_000 },
      token: TOKENS.trainer,
    });
    expect(waited.body.done).toBe(true);
  });
});
