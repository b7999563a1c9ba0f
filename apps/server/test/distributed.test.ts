// Distributed mode for real: the server API-only (no pools) on PostgreSQL + Redis, one worker
// PROCESS (apps/worker, spawned) running real rollouts in bubblewrap sandboxes against the
// simulator; workers.list shows it with its occupancy; a drain from the API stops new work while
// the started job finishes; SIGTERM stops it gracefully and it is marked stopped.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TJob } from "@raas/shared";
import { type RunningSimulator, startSimulator, type TPolicyConfigInput } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type SpawnedWorker, spawnWorker } from "../../worker/test/support/spawn-worker";
import { type RunningServer, startServer } from "../src/server";
import { freshDistributedServices } from "./support/distributed-services";

const DATA = fileURLToPath(new URL("../../../packages/handlers/data/", import.meta.url));
const TOKENS = { admin: "dist-admin", trainer: "dist-trainer" };
const WAIT = { timeout: 60_000, interval: 100 };
const tasks = (file: string, ids: string[]) =>
  readFileSync(join(DATA, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { taskId: string })
    .filter((task) => ids.includes(task.taskId));

describe("distributed mode: an API-only server and a worker process", () => {
  const services = freshDistributedServices();
  const dataDir = mkdtempSync(join(tmpdir(), "raas-distributed-"));
  let simulator: RunningSimulator;
  let server: RunningServer;
  let worker: SpawnedWorker;

  const call = async (path: string, init: { body?: unknown; token?: string; method?: string } = {}) => {
    const response = await fetch(`${server.url}/api/v1${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        authorization: `Bearer ${init.token ?? TOKENS.trainer}`,
        "content-type": "application/json",
      },
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
    return { status: response.status, body: (await response.json()) as any };
  };
  const listed = async (id: string, all = false) =>
    (await call(`/workers${all ? "?includeStopped=true" : ""}`)).body.workers.find(
      (w: { id: string }) => w.id === id,
    );
  const job = async (id: string): Promise<TJob> => (await call(`/jobs/${encodeURIComponent(id)}`)).body;

  beforeAll(async () => {
    const policy = JSON.parse(readFileSync(join(DATA, "simulator/math-code-stem.policy.json"), "utf8"));
    simulator = await startSimulator({ policy: policy as TPolicyConfigInput, seed: 7 });
    server = await startServer({
      port: 0,
      logLevel: "silent",
      store: { kind: "db", dataDir, databaseUrl: services.databaseUrl },
      queue: { kind: "redis", url: services.redisUrl, prefix: services.prefix },
      pools: { init: { concurrency: 0 }, run: { concurrency: 0 }, eval: { concurrency: 0 } },
      auth: { adminToken: TOKENS.admin, trainerToken: TOKENS.trainer },
      inference: { backends: [{ kind: "vllm", baseUrl: simulator.url, modelName: "Qwen/Qwen3-8B" }] },
      workers: { monitorIntervalMs: 500 },
    });
    worker = await spawnWorker({
      DATABASE_URL: services.databaseUrl,
      RAAS_QUEUE: services.redisUrl,
      RAAS_QUEUE_PREFIX: services.prefix,
      RAAS_WORKER_POOLS: "init=2,run=3,eval=2",
      RAAS_WORKER_LABELS: "e2e,bubblewrap",
      RAAS_WORKER_HEARTBEAT_MS: "300",
      RAAS_BACKENDS: `vllm=${simulator.url}#Qwen/Qwen3-8B`,
    });
  }, 240_000);

  afterAll(async () => {
    await worker?.kill();
    await server?.close({ graceMs: 100 });
    await simulator?.close();
    await services.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("the server runs no pools and is no worker; the worker process is listed with its pools and labels", async () => {
    expect(server.queueKind).toBe("redis");
    expect(server.storeKind).toBe("postgres");
    expect(server.workers.workerId).toBeNull();
    expect(await listed(worker.id)).toMatchObject({
      status: "active",
      pid: worker.pid,
      labels: ["e2e", "bubblewrap"],
      pools: { init: { concurrency: 2 }, run: { concurrency: 3 }, eval: { concurrency: 2 } },
    });
    const health = await fetch(`${worker.httpUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "running", workerId: worker.id });
    const metrics = await (await fetch(`${worker.httpUrl}/metrics`)).text();
    expect(metrics).toContain('raas_stage_concurrency{stage="run"} 3');
  });

  it("runs math and code rollouts submitted over REST to completion on the worker, with rewards", async () => {
    const jobs = [
      ...tasks("math.jsonl", ["math-001", "math-016"]).map((payload) => ({ kind: "math", payload })),
      ...tasks("code.jsonl", ["code-001", "code-008"]).map((payload) => ({ kind: "code", payload })),
    ];
    const submitted = await call("/jobs/batch", { body: { jobs } });
    expect(submitted.status).toBe(200);
    const ids: string[] = submitted.body.results.map((r: { job: TJob }) => r.job.id);
    let finished: TJob[] = [];
    for (;;) {
      const waited = await call("/jobs/wait", { body: { ids, timeoutMs: 30_000 } });
      finished = waited.body.jobs;
      if (waited.body.done) break;
    }
    const rewardOf = Object.fromEntries(
      finished.map((j) => [(j.payload as { taskId: string }).taskId, [j.status, j.reward]]),
    );
    expect(rewardOf).toEqual({
      "math-001": ["completed", 1],
      "math-016": ["completed", 0],
      "code-001": ["completed", 1],
      "code-008": ["completed", 0],
    });
    const trajectory = (await call(`/jobs/${encodeURIComponent(ids[0]!)}/trajectory`)).body;
    expect(trajectory.turns.length).toBeGreaterThan(0);
    // Job counters: the server's (every process's events reach it); the worker exports none, so
    // a sum over all scrape targets counts each job once. Its stage durations are its own.
    const serverMetrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(serverMetrics).toContain('raas_jobs_completed_total{handler="math"} 2');
    const workerMetrics = await (await fetch(`${worker.httpUrl}/metrics`)).text();
    expect(workerMetrics).not.toContain("raas_jobs_completed_total");
    expect(workerMetrics).toMatch(/raas_stage_duration_seconds_count\{stage="run",outcome="ok"\} [1-9]/);
  });

  it("shows occupancy, and a drain from the API lets the started job finish while a new one waits", async () => {
    const started = (
      await call("/jobs", { body: { kind: "sleep", payload: { initMs: 1, runMs: 2_500, evalMs: 1 } } })
    ).body.job as TJob;
    await vi.waitFor(async () => expect((await listed(worker.id)).pools.run.active).toBe(1), WAIT);

    const drained = await call(`/workers/${encodeURIComponent(worker.id)}/drain`, {
      method: "POST",
      token: TOKENS.admin,
    });
    expect(drained.status).toBe(200);
    // The worker learns of the drain at its next beat; a job submitted after that waits.
    await vi.waitFor(async () => expect((await listed(worker.id)).pools.init.concurrency).toBe(0), WAIT);
    const waiting = (
      await call("/jobs", { body: { kind: "sleep", payload: { initMs: 1, runMs: 1, evalMs: 1 } } })
    ).body.job as TJob;
    await vi.waitFor(async () => expect((await job(started.id)).status).toBe("completed"), WAIT);
    expect(await job(waiting.id)).toMatchObject({ status: "queued", stage: "init" });
    expect(await listed(worker.id)).toMatchObject({ status: "draining", isDraining: true });

    // SIGTERM: nothing held, so it stops at once — exit 0, marked stopped, the waiting job untouched.
    expect(await worker.stop()).toBe(0);
    expect(await listed(worker.id, true)).toMatchObject({ status: "stopped" });
    expect(await job(waiting.id)).toMatchObject({ status: "queued", stage: "init" });
  }, 180_000);

  it("SIGTERM while a job runs: the worker takes no new job, finishes the one it holds, exits 0 stopped", async () => {
    const second = await spawnWorker({
      DATABASE_URL: services.databaseUrl,
      RAAS_QUEUE: services.redisUrl,
      RAAS_QUEUE_PREFIX: services.prefix,
      RAAS_WORKER_POOLS: "init=1,run=1,eval=1",
      RAAS_WORKER_HEARTBEAT_MS: "300",
      RAAS_BACKENDS: `vllm=${simulator.url}#Qwen/Qwen3-8B`,
    });
    try {
      const long = (
        await call("/jobs", { body: { kind: "sleep", payload: { initMs: 1, runMs: 3_000, evalMs: 1 } } })
      ).body.job as TJob;
      await vi.waitFor(async () => expect((await job(long.id)).stage).toBe("run"), WAIT);
      const exited = second.stop();
      await vi.waitFor(async () => expect((await listed(second.id)).status).toBe("draining"), WAIT);
      const late = (
        await call("/jobs", { body: { kind: "sleep", payload: { initMs: 1, runMs: 1, evalMs: 1 } } })
      ).body.job as TJob;
      expect(await exited).toBe(0);
      expect(await job(long.id)).toMatchObject({ status: "completed", attempts: 1 });
      expect(await job(late.id)).toMatchObject({ status: "queued", stage: "init" });
      expect(await listed(second.id, true)).toMatchObject({ status: "stopped" });
    } finally {
      await second.kill();
    }
  }, 180_000);
});
