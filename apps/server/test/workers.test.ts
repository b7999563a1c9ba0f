// The server as a worker and as the watcher of workers, composed for real: on the embedded
// PGlite store (the Prisma adapter) its own worker "<hostname>:<pid>" is listed with live pool
// occupancy; drain/resume need the admin token and really pause/restart new work; a worker that
// registered and went silent is marked lost and reported. On the memory store, its beats count
// live bubblewrap sandboxes, and closing the server marks its worker stopped. Real timers with
// short intervals; outcomes are awaited, never timed.
import { mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { createRaasLogger as createServerLogger } from "@raas/compose";
import { afterAll, describe, expect, it, vi } from "vitest";
import { startServer } from "../src/server";

const TOKENS = { admin: "workers-admin", trainer: "workers-trainer" };
const WORKERS = { heartbeatIntervalMs: 100, monitorIntervalMs: 100, missedAfterMs: 2_000 };
const WAIT = { timeout: 30_000, interval: 50 };

async function call(url: string, options: { body?: unknown; token?: string; method?: string } = {}) {
  const response = await fetch(url, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers: {
      ...(options.token && { authorization: `Bearer ${options.token}` }),
      "content-type": "application/json",
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  return { status: response.status, body: (await response.json()) as any };
}

describe("workers.* served by the composed server on PGlite", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "raas-workers-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("lists its own worker with occupancy, drains and resumes it (admin only), reports a silent worker lost", async () => {
    const logLines: string[] = [];
    const running = await startServer({
      port: 0,
      logger: createServerLogger("info", { destination: { write: (line: string) => logLines.push(line) } }),
      store: { kind: "db", dataDir },
      auth: { adminToken: TOKENS.admin, trainerToken: TOKENS.trainer },
      agentHandlers: false,
      pools: { init: { concurrency: 2 }, run: { concurrency: 3 }, eval: { concurrency: 1 } },
      workers: WORKERS,
    });
    const api = `${running.url}/api/v1`;
    const ownId = `${hostname()}:${process.pid}`;
    const own = async () =>
      (await call(`${api}/workers`)).body.workers.find((worker: { id: string }) => worker.id === ownId);
    try {
      expect(running.storeKind).toBe("pglite");
      expect(await own()).toMatchObject({
        status: "active",
        pid: process.pid,
        hostname: hostname(),
        pools: { init: { concurrency: 2 }, run: { concurrency: 3 }, eval: { concurrency: 1 } },
      });

      // Two long RUN stages: the next heartbeat carries them as occupancy.
      const long = { kind: "sleep", payload: { initMs: 1, runMs: 60_000, evalMs: 1 } };
      const submitted = await call(`${api}/jobs/batch`, {
        body: { jobs: [long, long] },
        token: TOKENS.trainer,
      });
      expect(submitted.status).toBe(200);
      await vi.waitFor(
        async () => expect((await own()).pools.run).toEqual({ concurrency: 3, active: 2 }),
        WAIT,
      );
      const ids = submitted.body.results.map((result: { job: { id: string } }) => result.job.id);
      await call(`${api}/jobs/cancel`, { body: { jobIds: ids }, token: TOKENS.trainer });

      // A job that has started before the drain: it goes on through RUN and EVAL while drained.
      const started = (
        await call(`${api}/jobs`, {
          body: { kind: "sleep", payload: { initMs: 1, runMs: 3_000, evalMs: 1 } },
          token: TOKENS.trainer,
        })
      ).body.job;
      await vi.waitFor(async () => {
        const { stage, status } = (await call(`${api}/jobs/${started.id}`)).body;
        expect(stage !== "init" || status === "completed").toBe(true);
      }, WAIT);

      // Drain: the trainer token is refused; the admin drains; INIT goes to 0 and new work waits.
      const refused = await call(`${api}/workers/${encodeURIComponent(ownId)}/drain`, {
        method: "POST",
        token: TOKENS.trainer,
      });
      expect(refused.status).toBe(403);
      const drained = await call(`${api}/workers/${encodeURIComponent(ownId)}/drain`, {
        method: "POST",
        token: TOKENS.admin,
      });
      expect(drained.status).toBe(200);
      expect(drained.body.worker).toMatchObject({ id: ownId, status: "draining", isDraining: true });
      await vi.waitFor(() => expect(running.engine.stats().stages.init.concurrency).toBe(0), WAIT);
      const quick = { kind: "sleep", payload: { initMs: 1, runMs: 1, evalMs: 1 } };
      const waiting = (await call(`${api}/jobs`, { body: quick, token: TOKENS.trainer })).body.job;
      await vi.waitFor(
        async () => expect((await call(`${api}/jobs/${started.id}`)).body.status).toBe("completed"),
        WAIT,
      );
      const stillQueued = await call(`${api}/jobs/${waiting.id}`);
      expect(stillQueued.body).toMatchObject({ status: "queued", stage: "init" });
      expect(running.engine.stats().stages).toMatchObject({
        run: { concurrency: 3 },
        eval: { concurrency: 1 },
      });

      const resumed = await call(`${api}/workers/${encodeURIComponent(ownId)}/resume`, {
        method: "POST",
        token: TOKENS.admin,
      });
      expect(resumed.body.worker).toMatchObject({ status: "active", isDraining: false });
      await vi.waitFor(
        async () => expect((await call(`${api}/jobs/${waiting.id}`)).body.status).toBe("completed"),
        WAIT,
      );
      // The beat after the one that saw the resume carries the restored size.
      await vi.waitFor(async () => expect((await own()).pools.init.concurrency).toBe(2), WAIT);
      expect(
        (await call(`${api}/workers/nope:1/drain`, { method: "POST", token: TOKENS.admin })).status,
      ).toBe(404);

      // Another worker registers, beats once, and its process dies.
      const now = Date.now();
      await running.workers.store.register({
        id: "node-7:4242",
        hostname: "node-7",
        pid: 4242,
        labels: ["apptainer"],
        pools: { run: { concurrency: 8, active: 5 } },
        sandboxes: 5,
        startedAtMs: now,
        heartbeatAtMs: now,
      });
      await vi.waitFor(async () => {
        const listed = (await call(`${api}/workers`)).body.workers;
        expect(listed.find((worker: { id: string }) => worker.id === "node-7:4242")?.status).toBe("lost");
      }, WAIT);
      const report = logLines
        .map((line) => JSON.parse(line))
        .find((line) => line.msg === "worker lost: no heartbeat");
      expect(report).toMatchObject({ workerId: "node-7:4242", hostname: "node-7", pid: 4242 });
      // onLost is the engine's recoverWorker: it held no jobs here, so none restarted.
      await vi.waitFor(() => {
        const recovered = logLines
          .map((line) => JSON.parse(line))
          .find((line) => line.msg === "lost worker's jobs recovered");
        expect(recovered).toMatchObject({ workerId: "node-7:4242", restarted: 0, failed: 0 });
      }, WAIT);
      expect((await own()).status).toBe("active");
    } finally {
      await running.close({ graceMs: 0 });
    }
  });
});

describe("the server's worker on the memory store", () => {
  it("reports its live sandboxes (real bubblewrap sandboxes) at its heartbeats", async () => {
    const baseDir = mkdtempSync(join(tmpdir(), "raas-workers-sb-"));
    const running = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      sandbox: { runtime: "bubblewrap", baseDir },
      hostId: "box-2:78",
      workers: WORKERS,
    });
    const sandboxesOf = async () => (await running.workers.store.get("box-2:78"))?.sandboxes;
    try {
      expect(await sandboxesOf()).toBe(0);
      const first = await running.sandboxRuntime.create({ jobId: "job_a" });
      const second = await running.sandboxRuntime.create({ jobId: "job_b" });
      await vi.waitFor(async () => expect(await sandboxesOf()).toBe(2), WAIT);
      await first.close();
      await vi.waitFor(async () => expect(await sandboxesOf()).toBe(1), WAIT);
      await second.close();
      await vi.waitFor(async () => expect(await sandboxesOf()).toBe(0), WAIT);
    } finally {
      await running.close({ graceMs: 0 });
      rmSync(baseDir, { recursive: true, force: true });
    }
  });

  it("is registered under the configured host id and marked stopped when the server closes", async () => {
    const running = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      hostId: "box-1:77",
    });
    expect(running.workers.workerId).toBe("box-1:77");
    expect((await running.workers.store.get("box-1:77"))?.status).toBe("active");
    await running.close({ graceMs: 0 });
    expect(await running.workers.store.get("box-1:77")).toMatchObject({ status: "stopped" });
    await expect(running.workers.store.list()).resolves.toEqual([]);
  });
});
