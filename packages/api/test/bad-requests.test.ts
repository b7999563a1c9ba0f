import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, sleepJob, startTestServer, type TestServer, TOKENS } from "./helpers/test-server";

const MAX_BODY = 64 * 1024;

describe("every bad request gets the right 4xx with a readable message", () => {
  let server: TestServer;
  const auth = { authorization: `Bearer ${TOKENS.trainer}` };

  beforeAll(async () => {
    server = await startTestServer({ maxBodyBytes: MAX_BODY });
  });
  afterAll(() => server.close());

  const expectError = (
    response: { status: number; body: { error?: { code: string; message: string } } },
    status: number,
    code: string,
  ) => {
    expect(response.status).toBe(status);
    expect(response.body.error?.code).toBe(code);
    expect(response.body.error?.message.length).toBeGreaterThan(10);
    expect(JSON.stringify(response.body)).not.toMatch(/\n\s+at |node_modules/);
  };

  it("invalid JSON → 400 (REST and tRPC)", async () => {
    const rest = await http(`${server.url}/api/v1/jobs`, {
      rawBody: '{"kind": "sleep",',
      headers: { ...auth, "content-type": "application/json" },
    });
    expectError(rest, 400, "BAD_REQUEST");
    expect(rest.body.error.message).toContain("not valid JSON");
    const trpc = await http(`${server.url}/trpc/jobs.submit`, {
      rawBody: '{"kind": "sleep",',
      headers: { ...auth, "content-type": "application/json" },
    });
    expect(trpc.status).toBe(400);
    expect(trpc.body.error.data.code).toBe("BAD_REQUEST");
    expect(trpc.body.error.message).toContain("not valid JSON");
  });

  it("invalid UTF-8 → 400", async () => {
    const body = Buffer.concat([Buffer.from('{"kind":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const rest = await http(`${server.url}/api/v1/jobs`, {
      rawBody: body,
      headers: { ...auth, "content-type": "application/json" },
    });
    expectError(rest, 400, "BAD_REQUEST");
    expect(rest.body.error.message).toContain("UTF-8");
  });

  it("wrong types → 400 naming each field", async () => {
    const rest = await http(`${server.url}/api/v1/jobs`, {
      body: { kind: "sleep", payload: { runMs: "slow" }, priority: 1.5, extra: true },
      token: TOKENS.trainer,
    });
    expectError(rest, 400, "VALIDATION_FAILED");
    expect(rest.body.error.message).toContain("priority: expected int, received number");
    expect(rest.body.error.message).toContain('Unrecognized key: "extra"');
    const payload = await http(`${server.url}/api/v1/jobs`, {
      body: sleepJob({ runMs: -1 as number }),
      token: TOKENS.trainer,
    });
    expectError(payload, 400, "VALIDATION_FAILED");
    expect(payload.body.error.message).toContain('invalid payload for handler "sleep": payload.runMs: ');
    // The accepted keys, so a caller sees what the handler wants; no zod "Invalid input:" prefix.
    expect(payload.body.error.message).toContain("a sleep payload accepts: initMs, runMs, evalMs");
    expect(payload.body.error.message).not.toContain("Invalid input");
    expect(payload.body.error.details).toMatchObject({
      kind: "sleep",
      issues: [{ path: "payload.runMs" }],
      acceptedKeys: expect.arrayContaining(["initMs", "runMs", "evalMs", "jitter"]),
    });
  });

  it("unknown handler kind → 400 listing the registered kinds", async () => {
    const rest = await http(`${server.url}/api/v1/jobs`, { body: { kind: "swe" }, token: TOKENS.trainer });
    expectError(rest, 400, "UNKNOWN_HANDLER_KIND");
    expect(rest.body.error.message).toBe('unknown handler kind "swe"; registered kinds: sleep');
  });

  it("unknown job id → 404", async () => {
    const rest = await http(`${server.url}/api/v1/jobs/job_nope`);
    expectError(rest, 404, "NOT_FOUND");
    const wait = await http(`${server.url}/api/v1/jobs/wait`, {
      body: { ids: ["job_nope"], timeoutMs: 10 },
      token: TOKENS.trainer,
    });
    expectError(wait, 404, "NOT_FOUND");
  });

  it("oversized body → 413 (declared length, chunked stream, tRPC)", async () => {
    const big = JSON.stringify({ kind: "sleep", metadata: { blob: "x".repeat(MAX_BODY * 2) } });
    const rest = await http(`${server.url}/api/v1/jobs`, {
      rawBody: big,
      headers: { ...auth, "content-type": "application/json" },
    });
    expectError(rest, 413, "PAYLOAD_TOO_LARGE");
    expect(rest.body.error.message).toContain(`${MAX_BODY} bytes`);

    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${server.url}/api/v1/jobs`,
        { method: "POST", headers: { ...auth, "content-type": "application/json" } },
        (res) => {
          let body = "";
          res.on("data", (chunk) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      for (let i = 0; i < 4; i += 1) req.write(big.slice((i * big.length) / 4, ((i + 1) * big.length) / 4));
      req.end();
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).error.code).toBe("PAYLOAD_TOO_LARGE");

    const trpc = await http(`${server.url}/trpc/jobs.submit`, {
      rawBody: big,
      headers: { ...auth, "content-type": "application/json" },
    });
    expect(trpc.status).toBe(413);
    expect(trpc.body.error.data.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("wrong content type → 415; missing body → 400", async () => {
    const rest = await http(`${server.url}/api/v1/jobs`, {
      rawBody: "kind=sleep",
      headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
    });
    expectError(rest, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(rest.body.error.message).toContain("Content-Type: application/json");
    const empty = await http(`${server.url}/api/v1/jobs`, { method: "POST", headers: auth });
    expectError(empty, 400, "BAD_REQUEST");
    expect(empty.body.error.message).toContain("needs a JSON body");
    const trpcEmpty = await http(`${server.url}/trpc/jobs.submitMany`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
    });
    expect(trpcEmpty.status).toBe(400);
    expect(trpcEmpty.body.error.data.code).toBe("BAD_REQUEST");
    const trpcText = await http(`${server.url}/trpc/jobs.submit`, {
      rawBody: "kind=sleep",
      headers: { ...auth, "content-type": "text/plain" },
    });
    expect(trpcText.status).toBe(415);
    expect(trpcText.body.error.data.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("wrong method → 405 with Allow; unknown route → 404", async () => {
    const wrong = await http(`${server.url}/api/v1/stats`, { method: "DELETE" });
    expectError(wrong, 405, "METHOD_NOT_ALLOWED");
    expect(wrong.headers.get("allow")).toBe("GET");
    const del = await http(`${server.url}/api/v1/jobs`, { method: "DELETE" });
    expectError(del, 405, "METHOD_NOT_ALLOWED");
    expect(del.headers.get("allow")).toBe("GET, POST");
    const metrics = await http(`${server.url}/metrics`, { method: "POST" });
    expectError(metrics, 405, "METHOD_NOT_ALLOWED");

    const unknown = await http(`${server.url}/api/v2/jobs`);
    expectError(unknown, 404, "NOT_FOUND");
    expect(unknown.body.error.message).toContain("/openapi.json");
    const root = await http(`${server.url}/nope`);
    expectError(root, 404, "NOT_FOUND");
    const procedure = await http(`${server.url}/trpc/jobs.nope`);
    expect(procedure.status).toBe(404);
    expect(procedure.body.error.data.code).toBe("NOT_FOUND");
  });

  it("pathological nesting and bad path encoding → 400", async () => {
    const deep = `{"kind":"sleep","metadata":${"[".repeat(5_000)}${"]".repeat(5_000)}}`;
    const rest = await http(`${server.url}/api/v1/jobs`, {
      rawBody: deep,
      headers: { ...auth, "content-type": "application/json" },
    });
    expectError(rest, 400, "VALIDATION_FAILED");
    expect(rest.body.error.message).toContain("nests deeper than 64 levels");
    const encoded = await http(`${server.url}/api/v1/jobs/%E0%A4%A`);
    expectError(encoded, 400, "BAD_REQUEST");
  });

  it("wait longer than 60 s → 400", async () => {
    const rest = await http(`${server.url}/api/v1/jobs/wait`, {
      body: { ids: ["a"], timeoutMs: 600_000 },
      token: TOKENS.trainer,
    });
    expectError(rest, 400, "VALIDATION_FAILED");
    expect(rest.body.error.message).toContain("timeoutMs");
  });
});
