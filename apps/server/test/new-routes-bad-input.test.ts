// Bad input on the REST routes added with the trajectory export, the sandbox events and the 409
// contract, against the database stores (PGlite and PostgreSQL), where a driver or Prisma — not
// the API's own checks — would turn a value into a 500. Every answer must be a 4xx with a readable
// message (or a 2xx); before, `GET /api/v1/sandboxes/summary?sinceMs=1e16` was a 500 from Prisma.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StoreConfig } from "@raas/compose";
import { createJobStore } from "@raas/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";

const DATABASE_URL = process.env.RAAS_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const schema = `raas_test_badin_${process.pid}_${Date.now().toString(36)}`;
const sleep = { initMs: 1, runMs: 1, evalMs: 1 };

const ODD_IDS = [
  "%00",
  "a%00b",
  "%E0%A4%A",
  "%ff",
  "%20",
  "%c2%80",
  "%e2%80%ae",
  "x".repeat(300),
  "%ED%A0%80",
];
const ODD_QUERIES = [
  "?cursor=%00",
  "?cursor=",
  "?cursor=nope",
  "?limit=0",
  "?limit=1e400",
  "?limit=abc",
  "?limit=1&limit=2",
  "?bogus=1",
  "?sinceMs=1e16",
  "?sinceMs=9007199254740993",
  "?sinceMs=1e308",
  "?sinceMs=-1",
  "?sinceMs=NaN",
  "?hostId=%00",
  "?hostId=",
  "?type=nope",
  "?jobId=%00",
  "?sandboxId=%c2%80",
];

const stores: Array<[string, (dir: string) => StoreConfig]> = [
  ["PGlite", (dir) => ({ kind: "db", dataDir: dir })],
  ["PostgreSQL", (dir) => ({ kind: "db", dataDir: dir, databaseUrl: `${DATABASE_URL}?schema=${schema}` })],
];

afterAll(async () => {
  const store = await createJobStore({ databaseUrl: DATABASE_URL, schema, migrate: false });
  await store.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await store.close();
});

describe.each(stores)("bad input on the export, sandbox and 409 routes, %s store", (_name, storeConfig) => {
  let running: RunningServer;
  let dir: string;
  const headers = { authorization: "Bearer admin", "content-type": "application/json" };
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${running.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    return { label: `${method} ${path.slice(0, 90)}`, status: response.status, text: await response.text() };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "raas-bad-input-"));
    running = await startServer({
      port: 0,
      logLevel: "silent",
      store: storeConfig(dir),
      auth: { adminToken: "admin" },
      agentHandlers: false,
    });
    const submitted = await call("POST", "/api/v1/jobs", {
      kind: "sleep",
      payload: sleep,
      jobKey: "k",
      batchId: "b",
    });
    expect(submitted.status).toBe(201);
  });
  afterAll(async () => {
    await running?.close({ graceMs: 50 });
    rmSync(dir, { recursive: true, force: true });
  });

  const expectNoServerError = (outcomes: Array<{ label: string; status: number; text: string }>) => {
    expect(outcomes.filter((o) => o.status >= 500).map((o) => `${o.label} → ${o.status} ${o.text}`)).toEqual(
      [],
    );
    for (const outcome of outcomes.filter((o) => o.status >= 400)) {
      const parsed = JSON.parse(outcome.text) as { error?: { message?: string } };
      expect(parsed.error?.message, outcome.label).toMatch(/\w{3,}/);
    }
  };

  it("odd ids and query values answer 4xx (or 2xx), never 5xx", async () => {
    const paths: string[] = [];
    for (const id of ODD_IDS) {
      paths.push(`/api/v1/jobs/${id}/export`, `/api/v1/batches/${id}/trajectories`);
      paths.push(`/api/v1/batches/${id}/trajectories.jsonl`, `/api/v1/sandboxes/${id}`);
    }
    for (const query of ODD_QUERIES) {
      paths.push(`/api/v1/batches/b/trajectories${query}`, `/api/v1/batches/b/trajectories.jsonl${query}`);
      paths.push(`/api/v1/sandboxes/events${query}`, `/api/v1/sandboxes/summary${query}`);
      paths.push(`/api/v1/sandboxes/sb-1${query}`);
    }
    const outcomes = [];
    for (const path of paths)
      for (const method of ["GET", "POST", "DELETE"]) outcomes.push(await call(method, path));
    expectNoServerError(outcomes);
    expect(outcomes.filter((o) => o.status === 400).length).toBeGreaterThan(50);
  });

  it("a time filter past the latest date is a 400 naming sinceMs, a large valid one is a 200", async () => {
    const tooLate = await call("GET", "/api/v1/sandboxes/summary?sinceMs=1e16");
    expect(tooLate.status).toBe(400);
    expect(tooLate.text).toContain("sinceMs: at most 8640000000000000");
    const latest = await call("GET", "/api/v1/sandboxes/summary?sinceMs=8640000000000000");
    expect(latest.status).toBe(200);
    expect(JSON.parse(latest.text)).toMatchObject({ sandboxes: 0 });
  });

  it("conflicting resubmissions answer 409, odd ones 400, never 5xx", async () => {
    const variants: unknown[] = [
      { kind: "sleep", payload: { ...sleep, runMs: 2 }, jobKey: "k", batchId: "b" },
      { kind: "sleep", payload: sleep, jobKey: "k", batchId: "b", metadata: { a: 1 } },
      { kind: "sleep", payload: sleep, jobKey: "k", batchId: "b", timeoutsMs: { run: 5 } },
      { kind: "sleep", payload: sleep, jobKey: "k", batchId: "b", metadata: { "\u0000": 1 } },
      { kind: "sleep", payload: sleep, jobKey: "k", groupId: "g\u0085" },
      '{"kind":"sleep","jobKey":"k","batchId":"b","priority":1e400}',
    ];
    const outcomes = [];
    for (const job of variants) {
      const parsed = typeof job === "string" ? job : JSON.stringify(job);
      outcomes.push(await call("POST", "/api/v1/jobs", parsed));
      outcomes.push(await call("POST", "/api/v1/jobs/batch", `{"jobs":[${parsed},${parsed}]}`));
    }
    expectNoServerError(outcomes);
    expect(outcomes[0]?.status).toBe(409);
    expect(outcomes.filter((o) => o.status === 409).length).toBeGreaterThanOrEqual(4);
  });
});
