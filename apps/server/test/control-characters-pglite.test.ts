import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";

/**
 * PostgreSQL (here PGlite) stores no NUL in text or jsonb: before ids and payloads were checked,
 * `GET /api/v1/jobs/%00` was a 500 from the driver and a NUL in a payload a misleading 503.
 */
describe("control characters against the embedded PGlite store", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "raas-nul-"));
  let running: RunningServer;
  const headers = { authorization: "Bearer t", "content-type": "application/json" };
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${running.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as { error?: { message: string } } };
  };

  beforeAll(async () => {
    running = await startServer({
      port: 0,
      logLevel: "silent",
      store: { kind: "db", dataDir },
      auth: { trainerToken: "t" },
      agentHandlers: false,
    });
    expect(running.storeKind).toBe("pglite");
  });
  afterAll(async () => {
    await running?.close({ graceMs: 50 });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers 400 naming the field, never 500 or 503, and stores nothing", async () => {
    const sleep = { initMs: 1, runMs: 1, evalMs: 1 };
    const cases: Array<[string, string, unknown, string]> = [
      ["GET", "/api/v1/jobs/%00", undefined, "id: must not contain control characters"],
      ["GET", "/api/v1/jobs/job%00x/trajectory", undefined, "jobId: must not contain control characters"],
      ["GET", "/api/v1/jobs?batchId=%00", undefined, "batchId: must not contain control characters"],
      ["GET", "/api/v1/jobs?search=a%00", undefined, "search: must not contain control characters"],
      ["POST", "/api/v1/jobs/cancel", { jobId: "a\u0000" }, "jobId: must not contain control characters"],
      ["POST", "/api/v1/jobs", { kind: "sleep", jobKey: "k\u0000", payload: sleep }, "jobKey: must not"],
      [
        "POST",
        "/api/v1/jobs",
        { kind: "sleep", payload: sleep, metadata: { run: ["ok", "a\u0000"] } },
        "metadata.run[1]: must not contain the NUL character",
      ],
      [
        "POST",
        "/api/v1/benchmarks",
        { id: "run-1", model: "m\u0000", dataset: "d" },
        "model: a model name may not contain control characters",
      ],
    ];
    for (const [method, path, body, message] of cases) {
      const response = await call(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(response.body.error?.message, `${method} ${path}`).toContain(message);
    }
    const listed = await call("GET", "/api/v1/jobs");
    expect((listed.body as { items: unknown[] }).items).toEqual([]);
    // The store still works for ordinary requests.
    const ok = await call("POST", "/api/v1/jobs", { kind: "sleep", payload: sleep, metadata: { run: "ok" } });
    expect(ok.status).toBe(201);
  });
});
