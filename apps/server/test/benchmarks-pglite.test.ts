// `benchmarks.*` served by the composed server on the embedded PGlite store (the Prisma adapter):
// a run survives a restart, a duplicate id is a 409 even when two creates race past the check.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../src/server";

const TOKEN = "bench-trainer";

async function call(url: string, body?: unknown) {
  const response = await fetch(url, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  return { status: response.status, body: (await response.json()) as any };
}

describe("benchmarks.* on the embedded PGlite store", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "raas-bench-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = {
    port: 0,
    logLevel: "silent",
    store: { kind: "db" as const, dataDir },
    auth: { trainerToken: TOKEN },
    agentHandlers: false as const,
  };

  it("stores a run and its results durably, 409s duplicates (also racing ones), 404s unknown runs", async () => {
    const first = await startServer(config);
    try {
      expect(first.storeKind).toBe("pglite");
      const api = `${first.url}/api/v1/benchmarks`;
      const run = { id: "pg-run-1", model: "Qwen/Qwen3-8B", dataset: "swe-mini", config: { concurrency: 2 } };
      const raced = await Promise.all([call(api, run), call(api, run), call(api, run)]);
      expect(raced.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      const conflict = raced.find((r) => r.status === 409)!;
      expect(conflict.body.error.code).toBe("CONFLICT");
      expect(conflict.body.error.message).toContain('a benchmark run with id "pg-run-1" already exists');

      const results = [
        { instanceId: "b__b-2", resolved: false, failToPass: { "t.py::x": "FAILED" }, jobId: "job_b" },
        {
          instanceId: "a__a-1",
          resolved: true,
          failToPass: { "t.py::y": "PASSED" },
          detail: { error: null },
        },
      ];
      const recorded = await call(`${api}/pg-run-1/results`, { results });
      expect(recorded.status).toBe(200);
      expect(recorded.body.run).toMatchObject({ totalCount: 2, resolvedCount: 1 });
      expect((await call(`${api}/pg-run-1/finish`, { status: "completed" })).body.run.status).toBe(
        "completed",
      );
      expect((await call(`${api}/nope/results`, { results })).status).toBe(404);
      expect((await call(`${api}/nope/finish`, { status: "failed" })).status).toBe(404);
    } finally {
      await first.close({ graceMs: 100 });
    }

    const second = await startServer(config);
    try {
      const api = `${second.url}/api/v1/benchmarks`;
      const got = await call(`${api}/pg-run-1`);
      expect(got.body.run).toMatchObject({
        id: "pg-run-1",
        status: "completed",
        config: { concurrency: 2 },
        totalCount: 2,
        resolvedCount: 1,
      });
      expect(got.body.run.finishedAtMs).toBeGreaterThan(0);
      const page = await call(`${api}/pg-run-1/results?limit=1`);
      expect(page.body.items).toMatchObject([
        { instanceId: "a__a-1", resolved: true, jobId: null, passToPass: null, detail: { error: null } },
      ]);
      const rest = await call(`${api}/pg-run-1/results?cursor=${page.body.nextCursor}`);
      expect(rest.body).toMatchObject({
        items: [{ instanceId: "b__b-2", jobId: "job_b" }],
        nextCursor: null,
      });
      expect((await call(`${api}?model=Qwen%2FQwen3-8B`)).body.runs.map((r: { id: string }) => r.id)).toEqual(
        ["pg-run-1"],
      );
    } finally {
      await second.close({ graceMs: 100 });
    }
  });
});
