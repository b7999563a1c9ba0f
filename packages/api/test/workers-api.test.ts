// The `workers.*` procedures over real HTTP (REST and tRPC) on the engine's in-memory worker
// store: listing with occupancy and heartbeat age, drain/resume for admins only, 404 for an
// unknown worker, 400 for a bad id, 503 without a registry. The server's own worker and the
// Prisma store behind it run in apps/server/test.
import { MemoryWorkerStore } from "@raas/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, startTestServer, type TestServer, TOKENS, trpcClient } from "./helpers/test-server";

describe("workers.* without a worker registry", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("answers 503 with a sentence over REST and tRPC", async () => {
    const listed = await http(`${server.url}/api/v1/workers`);
    expect(listed.status).toBe(503);
    expect(listed.body.error.message).toContain("runs without a worker registry");
    const drained = await http(`${server.url}/trpc/workers.drain`, {
      body: { id: "w" },
      token: TOKENS.admin,
    });
    expect(drained.status).toBe(503);
    expect(drained.body.error.data.code).toBe("UNAVAILABLE");
  });
});

describe("workers.* on the in-memory registry", () => {
  let server: TestServer;
  const store = new MemoryWorkerStore();
  const api = (path: string) => `${server.url}/api/v1/workers${path}`;

  beforeAll(async () => {
    server = await startTestServer({ workers: store });
    const now = Date.now();
    await store.register({
      id: "node-3:4711",
      hostname: "node-3",
      pid: 4711,
      labels: ["apptainer"],
      pools: { init: { concurrency: 4, active: 1 }, run: { concurrency: 8, active: 6 } },
      sandboxes: 7,
      startedAtMs: now - 60_000,
      heartbeatAtMs: now - 2_000,
    });
    await store.register({
      id: "node-4:99",
      hostname: "node-4",
      pid: 99,
      labels: [],
      pools: { eval: { concurrency: 2, active: 0 } },
      sandboxes: 0,
      startedAtMs: now - 30_000,
      heartbeatAtMs: now - 30_000,
    });
    await store.markStopped("node-4:99", now - 1_000);
  });
  afterAll(() => server.close());

  it("shows a worker that reported itself unhealthy, with its reason, and healthy again", async () => {
    const reason = "sandboxes: 3 sandbox start(s) in a row failed on this worker: ENOSPC";
    const beat = { pools: {}, sandboxes: 0, atMs: Date.now() };
    await store.heartbeat("node-3:4711", { ...beat, unhealthyReason: reason });
    const sick = await http(api(""));
    expect(sick.body.workers[0]).toMatchObject({
      status: "active",
      isHealthy: false,
      unhealthyReason: reason,
    });
    await store.heartbeat("node-3:4711", {
      pools: { init: { concurrency: 4, active: 1 }, run: { concurrency: 8, active: 6 } },
      sandboxes: 7,
      unhealthyReason: null,
      atMs: Date.now() - 2_000,
    });
    const well = await http(api(""));
    expect(well.body.workers[0]).toMatchObject({ isHealthy: true, unhealthyReason: null });
  });

  it("lists workers with status, labels, pool occupancy, sandboxes and heartbeat age", async () => {
    const { status, body } = await http(api(""));
    expect(status).toBe(200);
    expect(body.workers).toHaveLength(1);
    const [worker] = body.workers;
    expect(worker).toMatchObject({
      id: "node-3:4711",
      hostname: "node-3",
      pid: 4711,
      labels: ["apptainer"],
      status: "active",
      isDraining: false,
      pools: { init: { concurrency: 4, active: 1 }, run: { concurrency: 8, active: 6 } },
      sandboxes: 7,
      stoppedAtMs: null,
    });
    expect(worker.heartbeatAgeMs).toBeGreaterThanOrEqual(2_000);
    const withStopped = await http(api("?includeStopped=true"));
    expect(withStopped.body.workers.map((w: { id: string; status: string }) => [w.id, w.status])).toEqual([
      ["node-3:4711", "active"],
      ["node-4:99", "stopped"],
    ]);
    const viaTrpc = await trpcClient(server.url).workers.list.query();
    expect(viaTrpc.workers.map((w) => w.id)).toEqual(["node-3:4711"]);
  });

  it("drains and resumes for an admin only; the id may hold a colon, encoded or not", async () => {
    const asTrainer = await http(api("/node-3:4711/drain"), { method: "POST", token: TOKENS.trainer });
    expect(asTrainer.status).toBe(403);
    const anonymous = await http(api("/node-3:4711/drain"), { method: "POST" });
    expect(anonymous.status).toBe(401);
    expect((await store.get("node-3:4711"))?.status).toBe("active");

    const drained = await http(api("/node-3%3A4711/drain"), { method: "POST", token: TOKENS.admin });
    expect(drained.status).toBe(200);
    expect(drained.body.worker).toMatchObject({ id: "node-3:4711", status: "draining", isDraining: true });
    expect((await store.get("node-3:4711"))?.status).toBe("draining");

    const resumed = await trpcClient(server.url, TOKENS.admin).workers.resume.mutate({ id: "node-3:4711" });
    expect(resumed.worker).toMatchObject({ status: "active", isDraining: false });
  });

  it("answers 404 for an unknown worker and 400 for a bad id or filter", async () => {
    const unknown = await http(api("/node-9:1/drain"), { method: "POST", token: TOKENS.admin });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('no worker with id "node-9:1"');
    const viaTrpc = await http(`${server.url}/trpc/workers.resume`, {
      body: { id: "nope" },
      token: TOKENS.admin,
    });
    expect(viaTrpc.status).toBe(404);
    const badId = await http(`${server.url}/trpc/workers.drain`, { body: { id: "" }, token: TOKENS.admin });
    expect(badId.status).toBe(400);
    const controlChar = await http(api("/a%00b/drain"), { method: "POST", token: TOKENS.admin });
    expect(controlChar.status).toBe(400);
    const badFilter = await http(api("?includeStopped=perhaps"));
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.error.message).toContain("includeStopped");
  });
});
